import type { ServerResponse } from 'node:http';
import type { UsageRecord } from '../usage-record.js';
import type { SyncLedger } from '../sync-ledger.js';

/** Builds the request's usage row once and hands it to `keep`; a no-op once the row has been built. */
export type RecordUsage = (keep: (row: UsageRecord) => void) => void;

/**
 * `ledger.durability: sync`: when the handler ends the response, the row is built and committed first,
 * and only then is the end let through, so the client has the last byte of its answer (the body of a JSON
 * answer, the final chunk of a stream) only once its row is in the database; a `kill -9` after that loses
 * nothing it acknowledged. The ledger bounds the wait (it queues the row after its timeout). A client that
 * leaves before the end is recorded as in `batch`, when the response closes.
 */
export function commitUsageBeforeEnd(res: ServerResponse, ledger: SyncLedger, recordUsage: RecordUsage): void {
  const end = res.end;
  let ending = false;
  res.end = function endAfterCommit(this: ServerResponse, ...args: Parameters<ServerResponse['end']>) {
    // A second end while the first waits for the commit would let the answer out before it.
    if (ending) return this;
    ending = true;
    let committed: Promise<void> = Promise.resolve();
    try {
      recordUsage((row) => (committed = ledger.commit(row)));
    } finally {
      // Ended even if building the row threw (that error is the caller's): a response must never hang.
      void committed.then(() => {
        if (!this.destroyed) end.apply(this, args);
      });
    }
    return this;
  } as ServerResponse['end'];
}
