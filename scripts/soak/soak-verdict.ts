import { percentile, round } from '../bench/stats.js';
import type { SoakSample } from './gateway-sampler.js';

/** RSS at the end of the load may be at most this much above RSS right after the warm-up. */
export const rssGrowthLimit = 0.1;
/**
 * Descriptors other than TCP connections (files, pipes, event fds, the listening socket…) the last
 * quarter's peak may exceed the first quarter's by: uploads and image files in flight come and go.
 */
export const fdPeakTolerance = 4;

export interface SoakCheck {
  name: string;
  measured: string;
  pass: boolean;
}

export interface QuarterRss {
  lowMb: number;
  medianMb: number;
  highMb: number;
}

export interface SoakVerdict {
  pass: boolean;
  checks: SoakCheck[];
  /** The figures the checks compare. */
  /** RSS of the first and last quarter of the post-warm-up samples; the check compares the lows. */
  rss: { quarterSamples: number; afterWarmup: QuarterRss; end: QuarterRss; growth: number };
  fds: {
    quarterSamples: number;
    /** Peaks of open descriptors other than established TCP connections. */
    firstQuarterMax: number;
    lastQuarterMax: number;
    /** Peaks of established TCP connections (clients' and upstream). */
    connectionsFirstQuarterMax: number;
    connectionsLastQuarterMax: number;
    idleBefore: number;
    idleAfter: number;
  };
}

/**
 * The soak's pass/fail, from the samples taken after the warm-up (`load`), the idle samples before and
 * after, and the count of failed requests.
 *
 * RSS: the lowest sample of the first quarter of the post-warm-up samples ("after warm-up") against the
 * lowest of the last quarter ("end of load"). Under load RSS saw-tooths by a third or more: V8 lets the heap
 * fill with garbage for a minute or so before a full collection (measured: heap used 105 → 220 MB, back
 * to 105 MB after it), so one sample, or a median, says more about when the collector last ran than about
 * what the process keeps. The lows are what it keeps after collecting, and a leak lifts them. A quarter
 * of a 9-minute measured load is over two minutes, long enough to hold at least one full collection.
 *
 * Descriptors: connections are pooled at both ends (undici keeps up to about two per request in flight, in
 * the clients' pools and in the gateway's upstream pool), so their count follows timing, not history.
 * Under load, the highest count of everything else in the last quarter of the post-warm-up samples may be
 * at most `fdPeakTolerance` above the highest in the first quarter (peaks, because the lows are set by
 * chance), and connections' peak at most `concurrency` above. The decisive check comes after the load:
 * once every connection has closed, the count must be back to the idle count before the load.
 */
export function judgeSoak(
  samples: SoakSample[],
  idle: { before: SoakSample; after: SoakSample },
  concurrency: number,
  failedRequests: number,
): SoakVerdict {
  const load = samples.filter((sample) => sample.phase === 'load');
  const quarter = Math.max(1, Math.floor(load.length / 4));
  const [first, last] = [load.slice(0, quarter), load.slice(-quarter)];
  const rss = { quarterSamples: quarter, afterWarmup: quarterRss(first), end: quarterRss(last), growth: 0 };
  rss.growth = round(rss.end.lowMb / rss.afterWarmup.lowMb - 1, 4);

  const peak = (part: SoakSample[], count: (sample: SoakSample) => number) => Math.max(...part.map(count));
  const connections = (sample: SoakSample) => sample.fds.established;
  const others = (sample: SoakSample) => sample.fds.total - sample.fds.established;
  const fds = {
    quarterSamples: quarter,
    firstQuarterMax: peak(first, others),
    lastQuarterMax: peak(last, others),
    connectionsFirstQuarterMax: peak(first, connections),
    connectionsLastQuarterMax: peak(last, connections),
    idleBefore: idle.before.fds.total,
    idleAfter: idle.after.fds.total,
  };

  const checks: SoakCheck[] = [
    {
      name: `RSS growth after warm-up < ${rssGrowthLimit * 100}% (lowest sample of the last quarter under load vs of the first quarter)`,
      measured: `${rss.afterWarmup.lowMb.toFixed(1)} → ${rss.end.lowMb.toFixed(1)} MB (${signedPercent(rss.growth)})`,
      pass: rss.growth < rssGrowthLimit,
    },
    {
      name: `descriptors other than TCP connections under load: peak of the last quarter ≤ peak of the first quarter + ${fdPeakTolerance}`,
      measured: `${fds.firstQuarterMax} → ${fds.lastQuarterMax}`,
      pass: fds.lastQuarterMax <= fds.firstQuarterMax + fdPeakTolerance,
    },
    {
      name: `TCP connections under load: peak of the last quarter ≤ peak of the first quarter + ${concurrency} (the concurrency)`,
      measured: `${fds.connectionsFirstQuarterMax} → ${fds.connectionsLastQuarterMax}`,
      pass: fds.connectionsLastQuarterMax <= fds.connectionsFirstQuarterMax + concurrency,
    },
    {
      name: 'open descriptors at rest after the load ≤ at rest before it (every connection closed)',
      measured: `${fds.idleBefore} before, ${fds.idleAfter} after (${idle.after.fds.established} connections, ${idle.after.fds.otherSockets} other TCP sockets still open)`,
      pass: fds.idleAfter <= fds.idleBefore,
    },
    { name: 'no unexpected failures', measured: `${failedRequests} failed`, pass: failedRequests === 0 },
  ];
  return {
    pass: checks.every((check) => check.pass),
    checks,
    rss,
    fds,
  };
}

function quarterRss(samples: SoakSample[]): QuarterRss {
  const values = samples.map((sample) => sample.rssMb);
  return { lowMb: Math.min(...values), medianMb: percentile(values, 50), highMb: Math.max(...values) };
}

export function signedPercent(fraction: number): string {
  return `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)}%`;
}
