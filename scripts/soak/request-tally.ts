import { percentile, round } from '../bench/stats.js';

/** One kind's figures for the report. */
export interface KindSummary {
  name: string;
  requests: number;
  failed: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  /** Distinct failure messages, most frequent first. */
  failures: Array<{ message: string; count: number }>;
}

interface KindRecord {
  durationsMs: number[];
  failed: number;
  failures: Map<string, number>;
}

/** Counts what the load did, per kind: every request, its duration, and why the failed ones failed. */
export class RequestTally {
  private readonly kinds = new Map<string, KindRecord>();
  private count = 0;
  private failedCount = 0;

  record(kind: string, durationMs: number, error?: unknown): void {
    let record = this.kinds.get(kind);
    if (!record) this.kinds.set(kind, (record = { durationsMs: [], failed: 0, failures: new Map() }));
    record.durationsMs.push(durationMs);
    this.count++;
    if (error === undefined) return;
    record.failed++;
    this.failedCount++;
    const message = describeFailure(error);
    record.failures.set(message, (record.failures.get(message) ?? 0) + 1);
  }

  get requests(): number {
    return this.count;
  }

  get failed(): number {
    return this.failedCount;
  }

  summary(order: string[]): KindSummary[] {
    return order.map((name) => {
      const record = this.kinds.get(name) ?? { durationsMs: [], failed: 0, failures: new Map<string, number>() };
      return {
        name,
        requests: record.durationsMs.length,
        failed: record.failed,
        medianMs: round(percentile(record.durationsMs, 50), 1),
        p99Ms: round(percentile(record.durationsMs, 99), 1),
        maxMs: round(record.durationsMs.reduce((max, value) => Math.max(max, value), 0), 1),
        failures: [...record.failures].map(([message, count]) => ({ message, count })).sort((x, y) => y.count - x.count),
      };
    });
  }
}

/** The error's class, HTTP status if any, and message: enough to group failures and to start looking. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 300);
  const status = (error as { status?: unknown }).status;
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return `${error.constructor.name}${typeof status === 'number' ? ` ${status}` : ''}: ${error.message}${cause}`.slice(0, 300);
}
