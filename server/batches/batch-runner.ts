import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { UsageRecord } from '../usage/usage-record.js';
import type { BatchStore } from './batch-store.js';
import type { ClaimedLine } from './batch-types.js';
import type { LineExecutor } from './line-executor.js';

export interface BatchRunnerOptions {
  store: BatchStore;
  executor: LineExecutor;
  logger: Logger;
  /** `batches.lines_in_flight`: lines this instance runs at once. */
  linesInFlight: number;
  /** `batches.poll_interval_ms`: how often an idle runner looks for lines (and sweeps canceled and expired ones). */
  pollIntervalMs: number;
  /** `batches.lease_seconds` in ms: a claim lives this long unless renewed; a dead instance's lines are free after it. */
  leaseMs: number;
  /** `batches.max_attempts`: claims of one line after which it errors instead of running again. */
  maxAttempts: number;
  /** Names this instance in the claims it makes; a new one per process. */
  instanceId?: string;
  /**
   * Each round after the sweep: the protocols' work on batches that have ended (OpenAI's output and error
   * files), so that work is done even when no one reads the batch, and after a restart.
   */
  finishEnded?: (now: number) => Promise<void>;
  /** Each round after the sweep: the upstream batches that lines were forwarded to (upstream/upstream-batch-poller.ts). */
  tendUpstream?: (now: number) => Promise<void>;
}

/**
 * Runs batch lines on this instance: each round it sweeps (canceled and expired lines of every batch), then
 * claims as many lines as it has room for (`linesInFlight`) through the store, runs each through the
 * executor and records its outcome with its ledger row. Claims are leases, renewed while their lines run;
 * an instance that dies leaves its lines to be claimed again once their leases are past.
 *
 * What is guaranteed (README, "Message Batches"): every line ends with exactly one outcome, and a line has
 * one ledger row for each execution whose answer was recorded; a line is executed again only when its
 * instance stopped (kill -9, a lost host, a stall longer than the lease) between claiming it and recording
 * its outcome. A line refused for its account's limits (429 with `retry-after`) is given back and waits;
 * it is neither an outcome nor a ledger row.
 */
export class BatchRunner {
  readonly instanceId: string;
  private readonly running = new Map<string, { line: ClaimedLine; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  private round: Promise<void> | undefined;
  private again = false;
  private sweptAt = 0;

  constructor(private readonly options: BatchRunnerOptions) {
    this.instanceId = options.instanceId ?? `inst_${randomUUID()}`;
  }

  start(): void {
    this.schedule(0);
    this.renewTimer = setInterval(() => void this.renew(), Math.max(250, Math.floor(this.options.leaseMs / 3)));
    this.renewTimer.unref();
  }

  /** Looks for lines now (a batch was just made, a line just finished) instead of at the next poll. */
  wake(): void {
    if (this.stopping) return;
    if (this.round) this.again = true;
    else this.schedule(0);
  }

  /**
   * Claims no more lines and resolves once the lines running have their outcomes recorded (or have been given
   * back). Lines still waiting stay in the store for the next start, or for another instance.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.round;
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((each) => each.done));
    clearInterval(this.renewTimer);
  }

  /** Whether the runner is stopping: a line answered 503 now was cut by the shutdown, and is given back. */
  get isStopping(): boolean {
    return this.stopping;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.round = this.runRound().finally(() => {
        this.round = undefined;
        if (this.stopping) return;
        const again = this.again;
        this.again = false;
        this.schedule(again ? 0 : this.options.pollIntervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async runRound(): Promise<void> {
    try {
      const now = Date.now();
      // Sweeping and finishing ended batches are the slow poll's work: a round woken by a finished line only
      // claims the next one.
      if (now - this.sweptAt >= this.options.pollIntervalMs) {
        this.sweptAt = now;
        await this.options.store.sweep(now);
        await this.options.finishEnded?.(now);
        await this.options.tendUpstream?.(now);
      }
      const room = this.options.linesInFlight - this.running.size;
      if (room <= 0 || this.stopping) return;
      const lines = await this.options.store.claim(this.instanceId, room, now, now + this.options.leaseMs);
      for (const line of lines) {
        const key = `${line.batchId}/${line.position}`;
        const done = this.runLine(line).finally(() => {
          this.running.delete(key);
          this.wake();
        });
        this.running.set(key, { line, done });
      }
      // A full claim suggests more lines are waiting: claim again as soon as a slot frees (wake does that).
    } catch (error) {
      this.options.logger.error({ err: error }, 'batch runner round failed');
    }
  }

  private async runLine(line: ClaimedLine): Promise<void> {
    const { store, executor, logger } = this.options;
    try {
      if (line.attempts > this.options.maxAttempts) {
        const ended = executor.errorBody(line, `This request was interrupted ${line.attempts - 1} times (its gateway instance stopped while running it) and is not run again.`);
        await store.recordOutcome(line, { outcome: 'errored', statusCode: ended.status, requestId: null, response: ended.body }, undefined, Date.now());
        return;
      }
      const answer = await executor.execute(line);
      if (answer.retryAfterSeconds !== undefined && (answer.status === 429 || answer.status === 503 || answer.status === 529) && !this.stopping) {
        // The account's limits (or a store they need) said wait: not an outcome, and billed nothing.
        await store.release(this.instanceId, line, Date.now() + answer.retryAfterSeconds * 1000, false);
        return;
      }
      if (this.stopping && answer.status === 503) {
        // Cut by this instance's shutdown: given back to run again, its row kept (the upstream may have billed it).
        if (answer.row) await store.recordRowOnly(answer.row);
        await store.release(this.instanceId, line, Date.now(), true);
        return;
      }
      if (answer.lateRow) this.recordLateRow(line, answer.lateRow);
      const outcome = answer.status >= 200 && answer.status < 300 ? 'succeeded' : 'errored';
      const recorded = await store.recordOutcome(line, { outcome, statusCode: answer.status, requestId: answer.requestId, response: answer.body }, answer.row, Date.now());
      if (!recorded) logger.warn({ batch: line.batchId, line: line.position }, 'batch line already had an outcome (taken over after its lease ran out); this execution is billed but not its result');
    } catch (error) {
      logger.error({ err: error, batch: line.batchId, line: line.position }, 'batch line failed to run; given back');
      await store.release(this.instanceId, line, Date.now() + this.options.pollIntervalMs, true).catch(() => {});
    }
  }

  /** A row metering kept only after the line's outcome was recorded: written on its own, as soon as it comes. */
  private recordLateRow(line: ClaimedLine, row: Promise<UsageRecord>): void {
    row
      .then((kept) => this.options.store.recordRowOnly(kept))
      .catch((error: unknown) => this.options.logger.error({ err: error, batch: line.batchId, line: line.position }, 'writing a batch line\'s late ledger row failed'));
  }

  private async renew(): Promise<void> {
    if (this.running.size === 0) return;
    const lines = [...this.running.values()].map((each) => each.line);
    try {
      await this.options.store.renew(this.instanceId, lines, Date.now() + this.options.leaseMs);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'renewing batch line leases failed');
    }
  }
}
