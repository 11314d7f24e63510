import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import { startPeriodicCleanup } from '../core/periodic-cleanup.js';
import { msPerHour } from '../store/roll-up-stored-rows.js';
import type { UsageStore } from './usage-store.js';

/** Rows per delete: small enough that a batch holds neither the writer thread nor a PostgreSQL lock for long. */
export const retentionBatchRows = 5_000;

/** How often retention looks for rows past its horizon. */
const retentionIntervalMs = 10 * 60_000;

/**
 * The time before which retention deletes rows (Unix ms): `retentionDays` ago, rounded down to a UTC hour
 * so that every hour is either whole or gone, and reports can tell which (summarize-usage.ts). Undefined
 * while every row is kept.
 */
export function retentionHorizon(retentionDays: number | undefined, now = Date.now()): number | undefined {
  if (retentionDays === undefined) return undefined;
  return Math.floor((now - retentionDays * 86_400_000) / msPerHour) * msPerHour;
}

/**
 * Deletes every row before `horizon`, a batch of {@link retentionBatchRows} per statement, oldest first,
 * yielding between batches. The deletes go where the ledger is written: on SQLite its writer thread (the
 * event loop only waits), on PostgreSQL async statements on the pool. Resolves to how many went.
 */
export async function deleteRowsBefore(ledger: Pick<UsageStore, 'deleteBefore'>, horizon: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await ledger.deleteBefore(horizon, retentionBatchRows);
    total += deleted;
    if (deleted < retentionBatchRows) return total;
    await nextTurn();
  }
}

/**
 * `ledger.retention_days`: deletes the rows past the horizon every ten minutes; the rollups stay, so
 * reports of older periods still add up.
 */
export function startLedgerRetention(ledger: Pick<UsageStore, 'deleteBefore'>, retentionDays: number, logger: Logger): NodeJS.Timeout {
  return startPeriodicCleanup('usage ledger retention', () => deleteRowsBefore(ledger, retentionHorizon(retentionDays)!), retentionIntervalMs, logger);
}
