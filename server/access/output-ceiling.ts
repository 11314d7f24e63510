import { valueAt, withValueAt } from '../core/body-path.js';

/**
 * Where a protocol's request body names its output cap: `named` holds every field that counts as the
 * client's own cap (chat has two spellings, never both: core/one-spelling-per-field.ts), `set` the one the
 * gateway writes when there is none, and `candidates` the count of answers asked for (Gemini's
 * `candidateCount`), each of which may be as long as the cap.
 */
export interface OutputCapFields {
  named: readonly string[];
  set: string;
  candidates?: string;
}

/**
 * The cap the body names for one answer in the protocol's fields, and the field it is in; undefined when it
 * names none (a null counts as none, as in `withOutputCap`).
 */
export function namedCapOf(body: unknown, fields: OutputCapFields): { value: number; path: string } | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  for (const path of fields.named) {
    const value = valueAt(body as Record<string, unknown>, path);
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return { value, path };
  }
  return undefined;
}

/** How many answers the body asks for: the cap holds for each, so output may be this many times the cap. */
export function candidatesOf(body: unknown, fields: OutputCapFields): number {
  if (fields.candidates === undefined || body === null || typeof body !== 'object') return 1;
  const count = valueAt(body as Record<string, unknown>, fields.candidates);
  return typeof count === 'number' && Number.isInteger(count) && count > 1 ? count : 1;
}

/**
 * A key's `max_output_tokens` (or a cap the reservation granted) holds when the client names no cap of its
 * own: the body then gets it in the protocol's own field, before anything reads it, so a pass-through
 * forwards it upstream and a translation carries it into the internal request (and the built-in model
 * honours it). `total` is for all the answers asked for together, so each gets its share (at least 1: the
 * permission check refuses more answers than the ceiling has tokens). A cap the client named is left
 * alone: the permission check has already refused one above the ceiling.
 *
 * @example
 * withOutputCap({ model: 'm', messages }, chatOutputCap, 50) // → { model: 'm', messages, max_completion_tokens: 50 }
 */
export function withOutputCap<T extends object>(body: T, fields: OutputCapFields, total: number | undefined): T {
  if (total === undefined) return body;
  const record = body as Record<string, unknown>;
  if (fields.named.some((path) => valueAt(record, path) !== undefined && valueAt(record, path) !== null)) return body;
  return withValueAt(record, fields.set, Math.max(1, Math.floor(total / candidatesOf(body, fields)))) as T;
}
