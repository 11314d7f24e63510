/**
 * The hourly usage rollups as the database keeps them (table usage_rollups, migration 0007). The ledger's
 * code that keeps them current is usage/usage-rollup.ts; this is what the store itself needs of them, so
 * that a migration does not import the usage ledger (the store sits below it, .dependency-cruiser.cjs).
 */

/** Rollups are per UTC hour: `created_at` (ms) divided by this, rounded down, is the hour number. */
export const msPerHour = 3_600_000;

/**
 * One statement that adds every stored row to the rollups, with the same expressions as usage/usage-rollup.ts's
 * rollUpUsage, summing `sums`: migration 0007 builds the rollups of the rows stored before it with the columns
 * of its time, and the ledger-scale benchmark rebuilds them with today's (usage-rollup.ts's `rolledUpSums`)
 * after spreading its rows over past days. Plain SQL that both databases run as it is.
 */
export function rollUpStoredRowsSql(sums: ReadonlyArray<string>): string {
  return `insert into usage_rollups (hour, account_id, key_id, model, status_class, requests, ${sums.join(', ')})
  select created_at / ${msPerHour}, account_id, key_id, coalesce(model, ''), status / 100, count(*), ${sums.map((column) => `sum(${column})`).join(', ')}
  from usage_records
  group by created_at / ${msPerHour}, account_id, key_id, coalesce(model, ''), status / 100`;
}
