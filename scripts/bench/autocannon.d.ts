// autocannon ships no types and @types/autocannon is not installed: only what the bench uses, from its README.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Requests to send in all; overrides `duration`. */
      amount?: number;
      /** Seconds to wait for a response before counting a timeout. */
      timeout?: number;
      /** Requests per second over all connections (paced); unpaced when absent. */
      overallRate?: number;
      /** A response whose body fails this is counted in `mismatches`. */
      verifyBody?: (body: string) => boolean;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }

    interface Result {
      /** Seconds from start to stop. */
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      requests: Histogram & { sent: number };
      latency: Histogram;
      statusCodeStats: Record<string, { count: number }>;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
