import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../project-root.js';
import type { Database } from '../store/database.js';
import { toUsageRow, usageColumns, type UsageRecord } from './usage-record.js';
import { msPerHour, rolledUpSums, rollupKeyColumns } from './usage-rollup.js';

/**
 * What the writer thread (sqlite-ledger-worker.mjs) is sent: a batch of rows to store, or one batch of
 * retention's deletes. `id` pairs it with its answer.
 */
type LedgerTask = { id: number; rows: Array<Database['usage_records']> } | { id: number; deleteBefore: { time: number; limit: number } };

/** The writer thread's answer: no `error` once done; `changes`, the rows a delete removed. */
interface LedgerTaskResult {
  id: number;
  error?: string;
  changes?: number;
}

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
  private worker: Worker | undefined;
  private nextBatchId = 1;
  /** Batches sent and not answered yet, with the thread each went to. */
  private readonly waiting = new Map<number, { worker: Worker; resolve: (changes: number) => void; reject: (error: Error) => void }>();

  constructor(private readonly file: string) {}

  /** Stores the records in one transaction, all or none; rejects with the database's error. */
  async insertMany(records: readonly UsageRecord[]): Promise<void> {
    if (records.length > 0) await this.send({ id: this.nextBatchId++, rows: records.map(toUsageRow) });
  }

  /** Deletes at most `limit` records older than `time` (Unix ms), oldest first; resolves to how many. */
  deleteBefore(time: number, limit: number): Promise<number> {
    return this.send({ id: this.nextBatchId++, deleteBefore: { time, limit } });
  }

  /** Stops the thread; a batch still waiting is rejected, and a later batch would start a new thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private send(task: LedgerTask): Promise<number> {
    const worker = this.thread();
    // Referenced while a task is out, so that the process cannot end before its rows are stored.
    worker.ref();
    return new Promise<number>((resolve, reject) => {
      this.waiting.set(task.id, { worker, resolve, reject });
      worker.postMessage(task);
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerPath, {
      workerData: { file: this.file, columns: usageColumns, rollups: { keyColumns: rollupKeyColumns, sums: rolledUpSums, msPerHour } },
      // It holds one batch at a time (500 rows): a small heap keeps the thread's memory small.
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 },
    });
    worker.on('message', ({ id, error, changes }: LedgerTaskResult) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      // A thread with nothing to write must not keep a finished process alive.
      if (![...this.waiting.values()].some((other) => other.worker === worker)) worker.unref();
      if (error === undefined) waiter?.resolve(changes ?? 0);
      else waiter?.reject(new Error(`usage ledger: ${error}`));
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const [id, waiter] of this.waiting) {
        if (waiter.worker !== worker) continue;
        this.waiting.delete(id);
        waiter.reject(error);
      }
    };
    // What the thread throws arrives cloned, SQLite's own errors as plain objects: keep their message.
    worker.on('error', (error: unknown) =>
      failAll(error instanceof Error ? error : new Error(`usage ledger: writer thread failed: ${String((error as { message?: unknown })?.message ?? error)}`)),
    );
    worker.on('exit', (code) => failAll(new Error(`usage ledger: writer thread exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
