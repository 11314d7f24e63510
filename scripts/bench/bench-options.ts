import { parseArgs } from 'node:util';
import { scenarioIds, type ScenarioId } from './scenarios.js';

export interface BenchOptions {
  smoke: boolean;
  scenarios: ScenarioId[];
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
  outputFile: string;
}

const usage = `usage: npm run bench -- [--smoke] [--scenarios a,b,c,d,e] [--duration 5] [--rounds 2] [--connections 50]
                       [--warmup 1] [--single-connection-duration 3] [--ttfb-requests 200]
                       [--worker-scaling-duration 4]`;

/** Defaults fit `npm run bench` in under 5 minutes on 2 cores; `--smoke` is one short scenario for CI. */
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
    scenarios: readScenarios(values.scenarios ?? (smoke ? 'a' : scenarioIds.join(','))),
    durationSeconds: readNumber('duration', values.duration, smoke ? 1 : 5),
    rounds: readNumber('rounds', values.rounds, smoke ? 1 : 2),
    connections: readNumber('connections', values.connections, smoke ? 10 : 50),
    warmupSeconds: readNumber('warmup', values.warmup, smoke ? 0.5 : 1),
    singleConnectionSeconds: readNumber('single-connection-duration', values['single-connection-duration'], smoke ? 0 : 3),
    workerScalingSeconds: readNumber('worker-scaling-duration', values['worker-scaling-duration'], smoke ? 0 : 4),
    ttfbRequests: readNumber('ttfb-requests', values['ttfb-requests'], smoke ? 50 : 200),
    outputFile: smoke ? 'bench/smoke-results.json' : 'bench/results.json',
  };
}

function readScenarios(text: string): ScenarioId[] {
  const ids = text.split(',').map((id) => id.trim().toLowerCase());
  for (const id of ids) {
    if (!scenarioIds.includes(id as ScenarioId)) throw new Error(`unknown scenario '${id}' (known: ${scenarioIds.join(', ')})\n${usage}`);
  }
  return ids as ScenarioId[];
}

function readNumber(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got '${text}'\n${usage}`);
  return value;
}
