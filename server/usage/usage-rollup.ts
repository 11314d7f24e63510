import type { Database } from '../store/database.js';
import { msPerHour } from '../store/roll-up-stored-rows.js';

type UsageRow = Database['usage_records'];
export type UsageRollupRow = Database['usage_rollups'];

/** What the rollups sum, besides `requests` (one per row). */
export const rolledUpSums = [
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cache_write_input_tokens',
  'cache_write_1h_input_tokens',
  'image_count',
  'cost_usd',
  'estimated',
] as const satisfies ReadonlyArray<keyof UsageRow & keyof UsageRollupRow>;

/** The rollup's key columns, in the order of its primary key. */
export const rollupKeyColumns = ['hour', 'account_id', 'key_id', 'model', 'status_class'] as const satisfies ReadonlyArray<keyof UsageRollupRow>;

/**
 * The rollup rows that count `rows` (rows just inserted: those skipped as already stored must not be
 * passed), one per hour, account, key, model and status class, in key order, so that two writers adding to
 * the same rollups lock them in the same order and cannot deadlock. The SQLite writer thread keeps the same
 * sums with the same expressions in SQL (sqlite-ledger-worker.mjs), and so does store/roll-up-stored-rows.ts.
 *
 * @example
 * rollUpUsage([{ created_at: 7_200_000, status: 200, model: null, input_tokens: 5, … }])
 * // [{ hour: 2, status_class: 2, model: '', requests: 1, input_tokens: 5, … }]
 */
export function rollUpUsage(rows: ReadonlyArray<Pick<UsageRow, 'created_at' | 'account_id' | 'key_id' | 'model' | 'status' | (typeof rolledUpSums)[number]>>): UsageRollupRow[] {
  const groups = new Map<string, UsageRollupRow>();
  for (const row of rows) {
    const key = {
      hour: Math.floor(Number(row.created_at) / msPerHour),
      account_id: row.account_id,
      key_id: row.key_id,
      model: row.model ?? '',
      status_class: Math.trunc(Number(row.status) / 100),
    };
    const name = JSON.stringify(rollupKeyColumns.map((column) => key[column]));
    let group = groups.get(name);
    if (!group) {
      group = { ...key, requests: 0, ...(Object.fromEntries(rolledUpSums.map((column) => [column, 0])) as Record<(typeof rolledUpSums)[number], number>) };
      groups.set(name, group);
    }
    group.requests += 1;
    for (const column of rolledUpSums) group[column] += Number(row[column]);
  }
  return [...groups.values()].sort(compareKeys);
}

function compareKeys(a: UsageRollupRow, b: UsageRollupRow): number {
  for (const column of rollupKeyColumns) {
    if (a[column] !== b[column]) return a[column] < b[column] ? -1 : 1;
  }
  return 0;
}
