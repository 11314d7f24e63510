import { randomString } from '../core/random-string.js';
import type { Database } from '../store/database.js';

type UsageRow = Database['usage_records'];

/**
 * One row of the usage ledger: a model or image request, streamed or not. Fields are the `usage_records`
 * columns (their meanings are documented in `store/database.ts`): `created_at` is Unix milliseconds, token
 * counts follow OpenAI (`input_tokens` includes the cached ones, `output_tokens` the reasoning ones).
 * Only `estimated`, `completed` and `batch` differ: booleans here, 0/1 in the table.
 */
export type UsageRecord = Omit<UsageRow, 'estimated' | 'completed' | 'batch'> & { estimated: boolean; completed: boolean; batch: boolean };

/**
 * Every `usage_records` column, listed through a record type so that the compiler names any one missed; in
 * the order of the spec's UsageRecord, which the usage exports' columns follow (management/usage/api-usage-record.ts).
 */
export const usageColumns = Object.keys({
  id: true, created_at: true, request_id: true, account_id: true, key_id: true, model: true, deployment: true, protocol: true,
  endpoint: true, status: true, input_tokens: true, cached_input_tokens: true, cache_write_input_tokens: true,
  cache_write_1h_input_tokens: true, output_tokens: true, reasoning_tokens: true, image_count: true, latency_ms: true, cost_usd: true,
  price_tier_above_tokens: true, service_tier: true, batch: true, estimated: true, completed: true, batch_id: true,
} satisfies Record<keyof UsageRow, true>) as Array<keyof UsageRow>;

/** A new usage record ID: `use_` and 24 hex digits (96 random bits, so IDs never collide in practice). */
export function newUsageRecordId(): string {
  return `use_${randomString(12)}`;
}

/**
 * Widths of the `varchar` columns as migrations 0004 and 0009 created them. PostgreSQL refuses a longer string
 * (SQLite does not), and one refused row would fail its whole batch on every retry, so the store cuts
 * strings to fit instead.
 */
const textWidths = {
  id: 64,
  request_id: 160,
  account_id: 64,
  key_id: 64,
  model: 256,
  deployment: 512,
  protocol: 32,
  endpoint: 200,
  service_tier: 64,
  batch_id: 64,
} as const satisfies Partial<Record<keyof UsageRow, number>>;
const textWidthEntries = Object.entries(textWidths) as Array<[keyof typeof textWidths, number]>;

const integerColumns = [
  'created_at',
  'status',
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cache_write_input_tokens',
  'cache_write_1h_input_tokens',
  'image_count',
  'latency_ms',
  'price_tier_above_tokens',
] as const satisfies ReadonlyArray<keyof UsageRow>;

/**
 * The table row for a record, made to fit its columns: integers rounded (an estimate may be fractional and
 * PostgreSQL's `bigint` refuses it), numbers that are not finite stored as 0 (SQLite would store NULL into a
 * NOT NULL column) and strings cut to their column's width. A row that could not be stored would otherwise
 * block every later row behind it in the recorder's retries.
 */
export function toUsageRow(record: UsageRecord): UsageRow {
  const row: UsageRow = {
    ...record,
    estimated: record.estimated ? 1 : 0,
    completed: record.completed ? 1 : 0,
    batch: record.batch ? 1 : 0,
    cost_usd: finiteOrZero(record.cost_usd),
  };
  for (const column of integerColumns) row[column] = Math.round(finiteOrZero(record[column]));
  for (const [column, width] of textWidthEntries) {
    const value = record[column];
    if (typeof value === 'string' && value.length > width) row[column] = value.slice(0, width);
  }
  return row;
}

/** The record a table row holds. PostgreSQL's `bigint` arrives as a number already (see `openPostgres`). */
export function fromUsageRow(row: UsageRow): UsageRecord {
  const record = {
    ...row,
    estimated: Number(row.estimated) === 1,
    completed: Number(row.completed) === 1,
    batch: Number(row.batch) === 1,
    cost_usd: Number(row.cost_usd),
  };
  for (const column of integerColumns) record[column] = Number(row[column]);
  return record;
}

function finiteOrZero(value: number): number {
  return Number.isFinite(value) ? value : 0;
}
