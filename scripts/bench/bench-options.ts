import { parseArgs } from 'node:util';
import { batchApiNames, defaultBatchApis, type BatchApiName } from './batch-apis.js';
import { benchScenarioIds, type BenchScenarioId } from './scenarios.js';

export interface BenchOptions {
  smoke: boolean;
  scenarios: BenchScenarioId[];
  /** Seconds per measured run (one target, one round). */
  durationSeconds: number;
  rounds: number;
  connections: number;
  /** Seconds of unmeasured load per scenario × target before its rounds. */
  warmupSeconds: number;
  /** Seconds per round of the 1-connection pass on scenario (a); 0 skips it. */
  singleConnectionSeconds: number;
  /** Seconds per round of scenario (a) through 1 and then 2 gateway workers; 0 skips it. */
  workerScalingSeconds: number;
  /** Sequential requests per target for time to first byte (stream scenarios). */
  ttfbRequests: number;
  /** Scenario (f): lines per batch, the gateway's `batches.lines_in_flight`, interactive requests per second, the batch APIs. */
  batchLines: number;
  batchLinesInFlight: number;
  batchInteractiveRate: number;
  batchApis: BatchApiName[];
  outputFile: string;
}

const usage = `usage: npm run bench -- [--smoke] [--scenarios a,b,c,d,e,f] [--duration 5] [--rounds 2] [--connections 50]
                       [--warmup 1] [--single-connection-duration 3] [--ttfb-requests 200]
                       [--worker-scaling-duration 4] [--batch-lines 2000] [--batch-lines-in-flight 4]
                       [--batch-rate 100] [--batch-apis ${batchApiNames.join(',')}] [--output bench/results.json]`;

/**
 * Defaults fit `npm run bench` in about 5 minutes on 2 cores; `--smoke` is a short scenario (a) and a batch of
 * 100 lines for CI.
 */
export function readBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      smoke: { type: 'boolean', default: false },
      scenarios: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      'single-connection-duration': { type: 'string' },
      'ttfb-requests': { type: 'string' },
      'worker-scaling-duration': { type: 'string' },
      'batch-lines': { type: 'string' },
      'batch-lines-in-flight': { type: 'string' },
      'batch-rate': { type: 'string' },
      'batch-apis': { type: 'string' },
      output: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const smoke = values.smoke;
  return {
    smoke,
    scenarios: readScenarios(values.scenarios ?? (smoke ? 'a,f' : benchScenarioIds.join(','))),
    durationSeconds: readNumber('duration', values.duration, smoke ? 1 : 5),
    rounds: readNumber('rounds', values.rounds, smoke ? 1 : 2),
    connections: readNumber('connections', values.connections, smoke ? 10 : 50),
    warmupSeconds: readNumber('warmup', values.warmup, smoke ? 0.5 : 1),
    singleConnectionSeconds: readNumber('single-connection-duration', values['single-connection-duration'], smoke ? 0 : 3),
    workerScalingSeconds: readNumber('worker-scaling-duration', values['worker-scaling-duration'], smoke ? 0 : 4),
    ttfbRequests: readNumber('ttfb-requests', values['ttfb-requests'], smoke ? 50 : 200),
    batchLines: readNumber('batch-lines', values['batch-lines'], smoke ? 100 : 2_000),
    // The config's default, so that the bench measures what an operator gets without tuning.
    batchLinesInFlight: readNumber('batch-lines-in-flight', values['batch-lines-in-flight'], 4),
    batchInteractiveRate: readNumber('batch-rate', values['batch-rate'], 100),
    batchApis: readList('batch-apis', values['batch-apis'] ?? defaultBatchApis.join(','), batchApiNames),
    outputFile: values.output ?? (smoke ? 'bench/smoke-results.json' : 'bench/results.json'),
  };
}

function readScenarios(text: string): BenchScenarioId[] {
  return readList('scenarios', text.toLowerCase(), benchScenarioIds);
}

function readList<Name extends string>(name: string, text: string, known: readonly Name[]): Name[] {
  const items = text.split(',').map((item) => item.trim());
  for (const item of items) {
    if (!known.includes(item as Name)) throw new Error(`--${name}: unknown '${item}' (known: ${known.join(', ')})\n${usage}`);
  }
  return items as Name[];
}

function readNumber(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got '${text}'\n${usage}`);
  return value;
}
