import { once } from 'node:events';
import type { Response } from 'express';
import type { UsageRecord } from '../../usage/usage-record.js';
import type { UsageFilter, UsageListPosition, UsageStore } from '../../usage/usage-store.js';
import { maxListLimit } from '../../usage/usage-store.js';

/** The most rows one export writes; past it the file ends with a note rather than running for ever. */
export const maxCsvRows = 1_000_000;

const columns = [
  'id',
  'created_at',
  'request_id',
  'account_id',
  'key_id',
  'model',
  'protocol',
  'endpoint',
  'status',
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'image_count',
  'latency_ms',
  'cost_usd',
  'estimated',
  'completed',
] as const satisfies ReadonlyArray<keyof UsageRecord>;

/**
 * Streams every record matching `filter` as CSV (RFC 4180, newest first, `created_at` as ISO 8601 UTC),
 * a page of the store at a time: memory stays at one page whatever the range, and a slow reader holds
 * the next query back (the write waits for `drain`). A client that goes away stops the export.
 */
export async function writeUsageCsv(res: Response, store: UsageStore, filter: UsageFilter, fileName: string): Promise<void> {
  res.status(200).type('text/csv; charset=utf-8').attachment(fileName);
  await write(res, `${columns.join(',')}\r\n`);
  let after: UsageListPosition | undefined;
  let written = 0;
  while (written < maxCsvRows && !res.destroyed) {
    const { records, more } = await store.page(filter, { limit: maxListLimit, after });
    if (records.length === 0) break;
    await write(res, records.map(csvLine).join(''));
    written += records.length;
    const last = records[records.length - 1];
    after = { createdAt: last.created_at, id: last.id };
    if (!more) break;
  }
  res.end();
}

function csvLine(record: UsageRecord): string {
  return columns.map((column) => csvField(column === 'created_at' ? new Date(record.created_at).toISOString() : record[column])).join(',') + '\r\n';
}

/** Quotes a field only when it holds a comma, quote or line break, doubling its quotes (RFC 4180). */
function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function write(res: Response, chunk: string): Promise<void> {
  if (!res.write(chunk) && !res.destroyed) await Promise.race([once(res, 'drain'), once(res, 'close')]);
}
