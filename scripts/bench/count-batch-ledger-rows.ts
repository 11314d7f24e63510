import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadSqlite } from '../../server/store/load-sqlite.mjs';

export interface BatchLedgerRows {
  /** `usage_records` rows with the batch's `batch_id`. */
  rows: number;
  /** Of those, the ones whose request was answered 2xx. */
  okRows: number;
}

/**
 * Counts the batch's rows in the gateway's SQLite ledger (read-only, beside the running gateway), waiting up to
 * `timeoutMs` for `expected` of them: a line's row is committed with its outcome, so they should be there as
 * soon as the batch has ended; the wait only covers a slow disk.
 */
export async function countBatchLedgerRows(dataDir: string, batchId: string, expected: number, timeoutMs = 5_000): Promise<BatchLedgerRows> {
  const SQLite = await loadSqlite();
  const sqlite = new SQLite(join(dataDir, 'gateway.sqlite'), { readonly: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    const query = sqlite.prepare<[string], BatchLedgerRows>(
      'SELECT count(*) AS rows, coalesce(sum(status >= 200 AND status < 300), 0) AS okRows FROM usage_records WHERE batch_id = ?',
    );
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const counted = query.get(batchId)!;
      if (counted.rows >= expected || Date.now() > deadline) return counted;
      await sleep(200);
    }
  } finally {
    sqlite.close();
  }
}
