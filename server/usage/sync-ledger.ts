import type { Logger } from 'pino';
import type { UsageRecord } from './usage-record.js';
import type { UsageRecorder } from './usage-recorder.js';
import type { UsageStore } from './usage-store.js';

export interface SyncLedgerOptions {
  /** Where rows are committed: the same store the `UsageRecorder` writes to. */
  store: Pick<UsageStore, 'insertMany'>;
  /** Where a row goes when the store fails or is too slow: the write-behind queue, which retries it. */
  fallback: Pick<UsageRecorder, 'record'>;
  /** How long `commit` waits for the store before handing the row to `fallback`. */
  timeoutMs: number;
  logger: Logger;
}

/** Rows per insert; more wait for the next one. */
const maxGroup = 500;

/**
 * The ledger of `ledger.durability: sync`: `commit` resolves once the row is in the database, so that the
 * answer it belongs to can be sent after it (metering/commit-usage-before-end.ts). Rows that arrive while
 * an insert is running go together in the next one (group commit), so a busy gateway makes a few inserts
 * rather than one per request, and one at a time, like the `UsageRecorder`.
 *
 * `commit` never rejects and never waits longer than `timeoutMs`: if the database fails or is slow, the row
 * goes to the write-behind queue instead (kept and retried as in `batch`), and the answer goes out. A row
 * whose insert lands after all is not stored twice: the store skips IDs it has.
 *
 * @example
 * const ledger = new SyncLedger({ store, fallback: recorder, timeoutMs: 2_000, logger });
 * await ledger.commit(row); // committed, or queued if the database did not confirm in time
 */
export class SyncLedger {
  private waiting: Array<{ row: UsageRecord; done: (committed: boolean) => void }> = [];
  private writing: Promise<void> | undefined;

  constructor(private readonly options: SyncLedgerOptions) {}

  /** Resolves once the row is committed, or has been queued for the write-behind writer instead. */
  async commit(row: UsageRecord): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.options.timeoutMs)));
    const committed = await Promise.race([this.insert(row), late]);
    clearTimeout(timer);
    if (!committed) this.options.fallback.record(row);
  }

  /** Resolves once no insert is running or waiting (shutdown, before the write-behind queue is closed). */
  async idle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private insert(row: UsageRecord): Promise<boolean> {
    return new Promise((done) => {
      this.waiting.push({ row, done });
      this.writing ??= this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, maxGroup);
      let committed = true;
      try {
        await this.options.store.insertMany(group.map(({ row }) => row));
      } catch (error) {
        committed = false;
        this.options.logger.error({ err: error, rows: group.length }, 'usage ledger: synchronous write failed, rows queued for the batch writer');
      }
      for (const { done } of group) done(committed);
    }
    this.writing = undefined;
  }
}
