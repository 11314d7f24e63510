import { GatewayError } from '../../core/gateway-error.js';

export interface PageQuery {
  after?: string;
  before?: string;
  limit: number;
  order: 'asc' | 'desc';
}

export interface Page<T> {
  object: 'list';
  data: T[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/**
 * One page of items in OpenAI's cursor style: `order` first (`desc` is newest first), then everything
 * after `after` and/or before `before` (item IDs), then at most `limit`. An unknown cursor is a 400, as
 * OpenAI answers, rather than an empty page that looks like the end.
 */
export function paginateItems<T extends { id?: unknown }>(items: readonly T[], query: PageQuery): Page<T> {
  const ordered = query.order === 'desc' ? [...items].reverse() : [...items];
  const position = (cursor: string, param: string) => {
    const index = ordered.findIndex((item) => item.id === cursor);
    if (index < 0) throw new GatewayError('invalid_request', `No item with id '${cursor}' in this response's input.`, { param });
    return index;
  };
  const start = query.after === undefined ? 0 : position(query.after, 'after') + 1;
  const end = query.before === undefined ? ordered.length : position(query.before, 'before');
  const window = ordered.slice(start, Math.max(start, end));
  const data = window.slice(0, query.limit);
  return {
    object: 'list',
    data,
    first_id: (data[0]?.id as string | undefined) ?? null,
    last_id: (data.at(-1)?.id as string | undefined) ?? null,
    has_more: window.length > data.length,
  };
}

/** Reads the list query as the spec defines it (Express 5 leaves query values as strings). */
export function readPageQuery(query: Record<string, unknown>): PageQuery {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new GatewayError('invalid_request', 'limit must be an integer from 1 to 100.', { param: 'limit' });
  }
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw new GatewayError('invalid_request', "order must be 'asc' or 'desc'.", { param: 'order' });
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return { after: text(query.after), before: text(query.before), limit, order };
}
