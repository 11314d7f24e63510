import type { Logger } from 'pino';
import type { UsageRecord } from './usage-record.js';
import type { UsageStore } from './usage-store.js';

export interface UsageRecorderOptions {
  /** Where batches go; a `UsageStore` in the gateway, anything with `insertMany` in tests. */
  store: Pick<UsageStore, 'insertMany'>;
  logger: Logger;
  /** How often queued rows are written. Default 1000. */
  flushIntervalMs?: number;
  /** Rows per write; a write starts as soon as this many wait. Default 500. */
  batchSize?: number;
  /**
   * Rows kept while the database is unreachable. Default 100,000. Once `batchSize` more have gathered, the
   * oldest are dropped down to this many.
   */
  maxQueued?: number;
  /** How long `close` keeps retrying a failing database before giving the remaining rows up. Default 10,000. */
  closeTimeoutMs?: number;
}

/**
 * Writes the usage ledger off the request path. `record` only queues the row; batches go to the store on a
 * timer or as soon as a batch is full, one write at a time, so a slow database never slows a request and
 * thousands of requests cost a few inserts. A failed write keeps its rows for the next tick.
 *
 * @example
 * const recorder = new UsageRecorder({ store: new UsageStore(db), logger });
 * recorder.record({ id: newUsageRecordId(), created_at: Date.now(), … });
 * // on shutdown, after the server stopped taking requests:
 * await recorder.close();
 */
export class UsageRecorder {
  private queue: UsageRecord[] = [];
  private writing: Promise<Error | undefined> | undefined;
  /** Rows ever queued, and rows written or dropped: `flush` waits until the second reaches the first. */
  private queued = 0;
  private settled = 0;
  /** Batches whose write failed (and were kept for a retry), and rows dropped from a full queue: for metrics. */
  private failures = 0;
  private dropped = 0;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly store: UsageRecorderOptions['store'];
  private readonly logger: Logger;
  private readonly flushIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxQueued: number;
  private readonly closeTimeoutMs: number;

  constructor(options: UsageRecorderOptions) {
    this.store = options.store;
    this.logger = options.logger;
    this.flushIntervalMs = options.flushIntervalMs ?? 1_000;
    this.batchSize = options.batchSize ?? 500;
    this.maxQueued = options.maxQueued ?? 100_000;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
    this.timer = setInterval(() => void this.write(), this.flushIntervalMs);
    this.timer.unref();
  }

  /** Queues a row for the next batch. Never throws and never waits for the database. */
  record(row: UsageRecord): void {
    this.queue.push(row);
    this.queued += 1;
    this.dropOverflow();
    // After `close` there is no timer: rows from requests still finishing are written straight away.
    if (this.queue.length >= this.batchSize || this.closed) void this.write();
  }

  /** Rows waiting to be written. */
  queuedRows(): number {
    return this.queue.length;
  }

  failedWrites(): number {
    return this.failures;
  }

  droppedRows(): number {
    return this.dropped;
  }

  /** Writes every row queued before the call; rejects with the store's error if a write fails (the rows stay queued). */
  async flush(): Promise<void> {
    const target = this.queued;
    while (this.settled < target) {
      const error = await this.write();
      if (error) throw error;
    }
  }

  /**
   * Stops the timer and writes until the queue is empty, rows recorded meanwhile included. A failing
   * database is retried every `flushIntervalMs` for up to `closeTimeoutMs`; only then are the rows left
   * given up, with an error log saying how many, so that shutdown cannot hang for ever.
   */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.closed = true;
    const deadline = Date.now() + this.closeTimeoutMs;
    while (this.queue.length > 0 || this.writing) {
      try {
        await this.flush();
      } catch {
        if (Date.now() >= deadline) {
          this.logger.error({ lost: this.queue.length }, 'usage ledger: database still failing at shutdown, usage rows lost');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, this.flushIntervalMs));
      }
    }
  }

  /** Writes the oldest batch, or joins the write already running: never two at once. Resolves with its error. */
  private write(): Promise<Error | undefined> {
    this.writing ??= this.writeBatch().then((error) => {
      this.writing = undefined;
      // A full batch waiting goes out now; after a failure the timer decides when to try again.
      if (!error && this.queue.length >= this.batchSize) void this.write();
      return error;
    });
    return this.writing;
  }

  private async writeBatch(): Promise<Error | undefined> {
    const batch = this.queue.splice(0, this.batchSize);
    if (batch.length === 0) return undefined;
    try {
      await this.store.insertMany(batch);
      this.settled += batch.length;
      return undefined;
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      // Back at the front, so rows keep their order and the next tick retries them first.
      this.queue = batch.concat(this.queue);
      this.failures += 1;
      this.dropOverflow();
      this.logger.error({ err: error, rows: batch.length, queued: this.queue.length }, 'usage ledger: write failed, will retry');
      return error;
    }
  }

  /**
   * The queue is bounded because during a long database outage it would otherwise grow until the process
   * runs out of memory and loses every row, and the gateway with it. The oldest rows go first: they are
   * the ones the outage has already made late. Rows are dropped in one go only once `batchSize` rows past
   * the bound have gathered, since cutting the front of a large array costs as much as copying it.
   */
  private dropOverflow(): void {
    if (this.queue.length <= this.maxQueued + this.batchSize) return;
    const dropped = this.queue.length - this.maxQueued;
    this.queue.splice(0, dropped);
    this.settled += dropped;
    this.dropped += dropped;
    this.logger.error({ dropped, maxQueued: this.maxQueued }, `usage ledger: queue full, ${dropped} oldest usage rows dropped`);
  }
}
