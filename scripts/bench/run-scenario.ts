import type { BenchOptions } from './bench-options.js';
import type { ScenarioResult, SingleConnectionResult } from './bench-results.js';
import { loadTargetsInTurn, type LoadTarget } from './load-targets-in-turn.js';
import { measureTtfb } from './measure-ttfb.js';
import type { RssSampler } from './process-memory.js';
import { targetNames, type Scenario, type TargetName } from './scenarios.js';
import { round } from './stats.js';

export interface BenchTargets {
  origins: Record<TargetName, string>;
  apiKey: string;
  gatewayMemory: RssSampler;
}

function loadTargets(scenario: Scenario, targets: BenchTargets): LoadTarget[] {
  return targetNames.map((name) => ({ name, origin: targets.origins[name], request: scenario.request(name, targets.apiKey) }));
}

/** Throughput and latency at the bench's connection count, then (for streams) time to first byte. */
export async function runScenario(scenario: Scenario, targets: BenchTargets, options: BenchOptions): Promise<ScenarioResult> {
  targets.gatewayMemory.resetPeak();
  const list = loadTargets(scenario, targets);
  const load = await loadTargetsInTurn(list, {
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    rounds: options.rounds,
    warmupSeconds: options.warmupSeconds,
    label: `[${scenario.id}]`,
  });
  const ttfb = scenario.streams && options.ttfbRequests > 0 ? await measureTtfb(list, { requests: options.ttfbRequests, warmup: 20 }) : undefined;
  return {
    id: scenario.id,
    title: scenario.title,
    streams: scenario.streams,
    baselineNote: scenario.baselineNote,
    load,
    addedMedianMs: {
      proxy: round(load.proxy.medianMs - load.direct.medianMs),
      gateway: round(load.gateway.medianMs - load.direct.medianMs),
    },
    ttfb,
    gatewayPeakRssMb: round(targets.gatewayMemory.resetPeak(), 1),
  };
}

/** One connection, no concurrency: 1/rps is the mean latency, with µs resolution. */
export async function runSingleConnection(scenario: Scenario, targets: BenchTargets, options: BenchOptions): Promise<SingleConnectionResult> {
  const load = await loadTargetsInTurn(loadTargets(scenario, targets), {
    connections: 1,
    durationSeconds: options.singleConnectionSeconds,
    rounds: options.rounds,
    warmupSeconds: 0.5,
    label: `[${scenario.id}]`,
  });
  return {
    scenario: scenario.id,
    load,
    addedMeanMs: {
      proxy: round(load.proxy.meanMsPerRequest - load.direct.meanMsPerRequest),
      gateway: round(load.gateway.meanMsPerRequest - load.direct.meanMsPerRequest),
    },
  };
}
