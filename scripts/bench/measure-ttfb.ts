import { Agent, request as httpRequest } from 'node:http';
import type { BenchRequest, TargetName } from './scenarios.js';
import { percentile, round } from './stats.js';

export interface TtfbSummary {
  medianMs: number;
  p99Ms: number;
  samples: number;
  /** Requests that failed, answered non-2xx or ended incomplete; not in the percentiles. */
  failures: number;
}

export interface TtfbTarget {
  name: TargetName;
  origin: string;
  request: BenchRequest;
}

/**
 * Time to first byte of the response body, which autocannon does not report: sequential requests over one
 * keep-alive connection per target, timed with `process.hrtime.bigint()` from `request.end()` to the first
 * `data` event. Targets take turns request by request, so drift (GC, CPU frequency) hits them alike. The
 * first `warmup` requests per target are not counted.
 */
export async function measureTtfb(targets: readonly TtfbTarget[], options: { requests: number; warmup: number }): Promise<Record<string, TtfbSummary>> {
  const agents = new Map(targets.map((target) => [target.name, new Agent({ keepAlive: true, maxSockets: 1 })]));
  const samples = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  const failures = new Map<string, number>(targets.map((target) => [target.name, 0]));
  try {
    for (let index = 0; index < options.warmup + options.requests; index++) {
      for (const target of targets) {
        const ttfb = await timeFirstByte(target, agents.get(target.name)!).catch(() => undefined);
        if (index < options.warmup) continue;
        if (ttfb === undefined) failures.set(target.name, failures.get(target.name)! + 1);
        else samples.get(target.name)!.push(ttfb);
      }
    }
  } finally {
    for (const agent of agents.values()) agent.destroy();
  }
  return Object.fromEntries(
    targets.map(({ name }) => {
      const values = samples.get(name)!;
      return [name, { medianMs: round(percentile(values, 50)), p99Ms: round(percentile(values, 99)), samples: values.length, failures: failures.get(name)! }];
    }),
  );
}

/** Resolves with the TTFB in ms once the whole body arrived and is complete; rejects otherwise. */
function timeFirstByte(target: TtfbTarget, agent: Agent): Promise<number> {
  const { origin, request } = target;
  const url = new URL(request.path, origin);
  return new Promise((resolve, reject) => {
    let sentAt = 0n;
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
      },
      (res) => {
        let firstByteMs: number | undefined;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          firstByteMs ??= Number(process.hrtime.bigint() - sentAt) / 1e6;
          body += text;
        });
        res.on('end', () => {
          const ok = res.statusCode! >= 200 && res.statusCode! < 300 && firstByteMs !== undefined && request.isComplete(body);
          if (ok) resolve(firstByteMs!);
          else reject(new Error(`status ${res.statusCode}, ${body.length} bytes`));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
    sentAt = process.hrtime.bigint();
  });
}
