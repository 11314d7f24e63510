import autocannon from 'autocannon';
import type { BenchRequest } from './scenarios.js';
import { percentile, round } from './stats.js';

/** One autocannon run against one target. */
export interface LoadRun {
  seconds: number;
  /** 2xx responses; their latencies are in `latenciesMs`. */
  okResponses: number;
  latenciesMs: number[];
  non2xx: number;
  errors: number;
  timeouts: number;
  /** 2xx responses whose body was not whole (a stream cut short). */
  mismatches: number;
}

/** Several runs of one scenario × target (the rounds), merged. */
export interface LoadSummary {
  requestsPerSecond: number;
  medianMs: number;
  p99Ms: number;
  /** Wall time per request = 1 / rps; at one connection, the mean latency with µs resolution. */
  meanMsPerRequest: number;
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  seconds: number;
}

/**
 * Runs autocannon (programmatic API) for `durationSeconds` with `connections` keep-alive connections. The
 * per-request latencies come from its `response` events, which carry sub-millisecond times; its own
 * histogram starts at 1 ms and cannot show what a proxy adds. `amount` ends the run after that many requests
 * instead of after `durationSeconds`. `overallRate` paces the requests (per second,
 * over all connections) instead of sending the next as soon as one is answered; `until` ends the run early
 * when it settles.
 */
export async function runLoad(
  origin: string,
  request: BenchRequest,
  options: { connections: number; durationSeconds: number; amount?: number; overallRate?: number; until?: Promise<unknown> },
): Promise<LoadRun> {
  const latenciesMs: number[] = [];
  const instance = autocannon({
    url: `${origin}${request.path}`,
    method: 'POST',
    headers: request.headers,
    body: request.body,
    connections: options.connections,
    duration: options.durationSeconds,
    verifyBody: request.isComplete,
    ...(options.amount !== undefined && { amount: options.amount }),
    ...(options.overallRate !== undefined && { overallRate: options.overallRate }),
  });
  const stop = () => instance.stop();
  options.until?.then(stop, stop);
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
    if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTimeMs);
  });
  const result = await instance;
  return {
    seconds: result.duration,
    okResponses: latenciesMs.length,
    latenciesMs,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  };
}

export function summariseLoad(runs: readonly LoadRun[]): LoadSummary {
  const seconds = sum(runs.map((run) => run.seconds));
  const responses = sum(runs.map((run) => run.okResponses));
  const latencies = runs.flatMap((run) => run.latenciesMs);
  return {
    requestsPerSecond: round(responses / seconds, 1),
    medianMs: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    meanMsPerRequest: round((seconds * 1000) / responses),
    responses,
    non2xx: sum(runs.map((run) => run.non2xx)),
    errors: sum(runs.map((run) => run.errors)),
    timeouts: sum(runs.map((run) => run.timeouts)),
    mismatches: sum(runs.map((run) => run.mismatches)),
    seconds: round(seconds, 2),
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
