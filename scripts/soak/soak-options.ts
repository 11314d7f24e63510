import { parseArgs } from 'node:util';

export interface SoakOptions {
  /** Seconds of load in all, warm-up included. */
  durationSeconds: number;
  /** Seconds at the start of the load that the verdict ignores: JIT, pools and caches still growing. */
  warmupSeconds: number;
  /** Requests in flight at any moment. */
  concurrency: number;
  /** Seconds between samples of RSS and descriptors. */
  sampleSeconds: number;
  /** Longest wait, before and after the load, for the gateway's connections to close (see run-soak.ts). */
  settleSeconds: number;
  /** Directory for results.json and REPORT.md. */
  outDir: string;
}

export const soakUsage = `usage: npm run soak -- [--duration 600] [--warmup 60] [--concurrency 16] [--sample 5] [--settle 90] [--out soak]
  short check: npm run soak -- --duration 60 --warmup 15 --out /tmp/soak`;

/** Defaults are the committed run: 10 minutes at 16 requests in flight, gentle enough for a shared 2-core machine. */
export function readSoakOptions(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      concurrency: { type: 'string' },
      sample: { type: 'string' },
      settle: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(soakUsage);
    process.exit(0);
  }
  const options: SoakOptions = {
    durationSeconds: readNumber('duration', values.duration, 600),
    warmupSeconds: readNumber('warmup', values.warmup, 60),
    concurrency: readNumber('concurrency', values.concurrency, 16),
    sampleSeconds: readNumber('sample', values.sample, 5),
    settleSeconds: readNumber('settle', values.settle, 90),
    outDir: values.out ?? 'soak',
  };
  if (options.warmupSeconds >= options.durationSeconds) throw new Error(`--warmup must be shorter than --duration\n${soakUsage}`);
  if (options.concurrency < 1 || !Number.isInteger(options.concurrency)) throw new Error(`--concurrency must be a whole number ≥ 1\n${soakUsage}`);
  if (options.sampleSeconds <= 0) throw new Error(`--sample must be more than 0\n${soakUsage}`);
  // The verdict compares windows of samples; fewer than 8 after the warm-up makes them one or two samples each.
  if ((options.durationSeconds - options.warmupSeconds) / options.sampleSeconds < 8) {
    throw new Error(`--duration minus --warmup must hold at least 8 samples of --sample seconds\n${soakUsage}`);
  }
  return options;
}

function readNumber(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got '${text}'\n${soakUsage}`);
  return value;
}
