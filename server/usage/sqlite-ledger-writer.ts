import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../project-root.js';
import { WorkerRequests } from '../store/worker-requests.js';
import type { Database } from '../store/database.js';
import { toUsageRow, usageColumns, type UsageRecord } from './usage-record.js';
import { msPerHour } from '../store/roll-up-stored-rows.js';
import { rolledUpSums, rollupKeyColumns } from './usage-rollup.js';

/**
 * What the writer thread (sqlite-ledger-worker.mjs) is sent: a batch of rows to store, or one batch of
 * retention's deletes. Its answer's `changes` is the rows a delete removed.
 */
type LedgerTask = { rows: Array<Database['usage_records']> } | { deleteBefore: { time: number; limit: number } };

// Plain JavaScript, found from the project root, so the same file runs from the sources and from the bundle.
const workerPath = join(projectRoot, 'server/usage/sqlite-ledger-worker.mjs');

/**
 * Writes usage batches to an SQLite file from a worker thread. better-sqlite3 is synchronous: on the event
 * loop, a batch of 500 rows through kysely held every request for some 6 ms (~12 µs of CPU per row: the
 * largest cost of a model call after the network, bench/README.md). The thread keeps its own connection
 * and one prepared statement; the event loop only copies the rows across.
 *
 * A thread that dies (it should not) fails the batches it held, which the `UsageRecorder` keeps and retries;
 * the next batch starts a new thread.
 *
 * @example
 * const writer = new SqliteLedgerWriter('/data/gateway.sqlite');
 * const recorder = new UsageRecorder({ store: writer, logger });
 * // on shutdown:
 * await recorder.close(); // every row written
 * await writer.close();
 */
export class SqliteLedgerWriter {
  private readonly thread: WorkerRequests;

  constructor(file: string) {
    const workerData = { file, columns: usageColumns, rollups: { keyColumns: rollupKeyColumns, sums: rolledUpSums, msPerHour } };
    // It holds one batch at a time (500 rows): a small heap keeps the thread's memory small.
    const resourceLimits = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 };
    // A batch recorded after close (a request that ended during shutdown) starts a new thread rather than being lost.
    this.thread = new WorkerRequests(() => new Worker(workerPath, { workerData, resourceLimits }), 'usage ledger: writer thread', true);
  }

  /** Stores the records in one transaction, all or none; rejects with the database's error. */
  async insertMany(records: readonly UsageRecord[]): Promise<void> {
    if (records.length > 0) await this.send({ rows: records.map(toUsageRow) });
  }

  /** Deletes at most `limit` records older than `time` (Unix ms), oldest first; resolves to how many. */
  deleteBefore(time: number, limit: number): Promise<number> {
    return this.send({ deleteBefore: { time, limit } });
  }

  /** Stops the thread; a batch still waiting is rejected, and a later batch would start a new thread. */
  close(): Promise<void> {
    return this.thread.close();
  }

  private async send(task: LedgerTask): Promise<number> {
    const { changes } = await this.thread.send(task);
    return (changes as number | undefined) ?? 0;
  }
}
