import { asRecord } from '../providers/upstream/parse-json.js';

/**
 * What a validation error's path points at, in words: `tools[4] is the 'web_search' tool`. A path such
 * as `/body/tools/4/type` alone leaves the client counting array items to learn which of its tools (or
 * messages, or parts) was refused; the item's own `type`, `name` or `role` says it.
 *
 * @example
 * nameOffendingItem({ tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }] }, '/body/tools/1/type')
 * // → "tools[1] is {type: 'web_search'}"
 */
export function nameOffendingItem(body: unknown, pointer: string): string | undefined {
  const segments = pointer.replace(/^\/?body\/?/, '').split('/').filter(Boolean);
  let value = body;
  let param = '';
  let named: string | undefined;
  for (const segment of segments) {
    const record = asRecord(value);
    if (Array.isArray(value) && /^\d+$/.test(segment)) {
      value = value[Number(segment)];
      param = `${param}[${segment}]`;
      const label = labelOf(value);
      // The innermost labelled item is the most precise.
      if (label) named = `${param} is {${label}}`;
    } else if (record) {
      value = record[segment];
      param = param ? `${param}.${segment}` : segment;
    } else {
      break;
    }
  }
  return named;
}

const labelFields = ['type', 'role', 'name', 'server_label'] as const;

function labelOf(value: unknown): string | undefined {
  const item = asRecord(value);
  if (!item) return undefined;
  const parts = labelFields.flatMap((field) => (typeof item[field] === 'string' ? [`${field}: '${String(item[field]).slice(0, 64)}'`] : []));
  return parts.length ? parts.join(', ') : undefined;
}
