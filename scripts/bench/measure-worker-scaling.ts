import { runLoad, summariseLoad, type LoadRun } from './measure-throughput.js';
import { scenarios } from './scenarios.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';

export interface WorkerScalingResult {
  scenario: 'a';
  connections: number;
  /** req/s of scenario (a) through the gateway with one process and with WORKERS=2. */
  oneWorkerRps: number;
  twoWorkersRps: number;
  /** twoWorkersRps / oneWorkerRps. */
  speedup: number;
  failures: number;
}

/**
 * Scenario (a) through the bench's gateway (one process) and a second one started with WORKERS=2, taking
 * turns round by round as the main bench does. On a 2-core machine the load generator and the upstream
 * share the cores with both workers, so this shows what a second process buys here, not on a bigger host.
 */
export async function measureWorkerScaling(
  single: GatewayProcess,
  upstreamPort: number,
  options: { connections: number; durationSeconds: number; rounds: number; warmupSeconds: number },
): Promise<WorkerScalingResult> {
  const clustered = await startGatewayProcess(upstreamPort, { workers: 2 });
  try {
    const runs: Record<'one' | 'two', LoadRun[]> = { one: [], two: [] };
    const targets = [
      { name: 'one' as const, gateway: single },
      { name: 'two' as const, gateway: clustered },
    ];
    for (const { gateway } of targets) {
      await runLoad(gateway.origin, scenarios.a.request('gateway', gateway.apiKey), { connections: options.connections, durationSeconds: options.warmupSeconds });
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const { name, gateway } of targets) {
        const run = await runLoad(gateway.origin, scenarios.a.request('gateway', gateway.apiKey), {
          connections: options.connections,
          durationSeconds: options.durationSeconds,
        });
        runs[name].push(run);
        process.stderr.write(`[workers] round ${round}/${options.rounds}, ${name === 'one' ? 1 : 2} worker(s): ${(run.okResponses / run.seconds).toFixed(0)} req/s\n`);
      }
    }
    const one = summariseLoad(runs.one);
    const two = summariseLoad(runs.two);
    return {
      scenario: 'a',
      connections: options.connections,
      oneWorkerRps: one.requestsPerSecond,
      twoWorkersRps: two.requestsPerSecond,
      speedup: Math.round((100 * two.requestsPerSecond) / one.requestsPerSecond) / 100,
      failures: [one, two].reduce((sum, load) => sum + load.non2xx + load.errors + load.timeouts + load.mismatches, 0),
    };
  } finally {
    await clustered.stop();
  }
}
