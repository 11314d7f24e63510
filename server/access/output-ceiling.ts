import { valueAt, withValueAt } from '../core/body-path.js';

/**
 * Where a protocol's request body names its output cap: `named` holds every field that counts as the
 * client's own cap (chat has two), `set` the one the gateway writes when there is none.
 */
export interface OutputCapFields {
  named: readonly string[];
  set: string;
}

/**
 * A key's `max_output_tokens` holds when the client names no cap of its own: the body then gets the
 * ceiling in the protocol's own field, before anything reads it, so a pass-through forwards it upstream
 * and a translation carries it into the internal request (and the built-in model honours it). A cap the
 * client named is left alone: the permission check has already refused one above the ceiling.
 *
 * @example
 * withOutputCap({ model: 'm', messages }, chatOutputCap, 50) // → { model: 'm', messages, max_completion_tokens: 50 }
 */
export function withOutputCap<T extends object>(body: T, fields: OutputCapFields, ceiling: number | undefined): T {
  if (ceiling === undefined) return body;
  const record = body as Record<string, unknown>;
  if (fields.named.some((path) => valueAt(record, path) !== undefined && valueAt(record, path) !== null)) return body;
  return withValueAt(record, fields.set, ceiling) as T;
}
