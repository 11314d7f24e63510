import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../project-root.js';
import type { Database } from '../store/database.js';
import { toUsageRow, usageColumns, type UsageRecord } from './usage-record.js';

/** A batch of rows sent to the writer thread (sqlite-ledger-worker.mjs); `id` pairs it with its answer. */
interface LedgerBatch {
  id: number;
  rows: Array<Database['usage_records']>;
}

/** The writer thread's answer: no `error` once the batch is stored. */
interface LedgerBatchResult {
  id: number;
  error?: string;
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
  private readonly waiting = new Map<number, { worker: Worker; resolve: () => void; reject: (error: Error) => void }>();

  constructor(private readonly file: string) {}

  /** Stores the records in one transaction, all or none; rejects with the database's error. */
  insertMany(records: readonly UsageRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    const batch: LedgerBatch = { id: this.nextBatchId++, rows: records.map(toUsageRow) };
    const worker = this.thread();
    // Referenced while a batch is out, so that the process cannot end before its rows are stored.
    worker.ref();
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(batch.id, { worker, resolve, reject });
      worker.postMessage(batch);
    });
  }

  /** Stops the thread; a batch still waiting is rejected, and a later batch would start a new thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerPath, {
      workerData: { file: this.file, columns: usageColumns },
      // It holds one batch at a time (500 rows): a small heap keeps the thread's memory small.
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 },
    });
    worker.on('message', ({ id, error }: LedgerBatchResult) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      // A thread with nothing to write must not keep a finished process alive.
      if (![...this.waiting.values()].some((other) => other.worker === worker)) worker.unref();
      if (error === undefined) waiter?.resolve();
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
