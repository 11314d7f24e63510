import { loadTargetsInTurn } from './load-targets-in-turn.js';
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
 * turns round by round as the main bench does (load-targets-in-turn.ts). On a 2-core machine the load
 * generator and the upstream share the cores with both workers, so this shows what a second process buys
 * here, not on a bigger host.
 */
export async function measureWorkerScaling(
  single: GatewayProcess,
  upstreamPort: number,
  options: { connections: number; durationSeconds: number; rounds: number; warmupSeconds: number },
): Promise<WorkerScalingResult> {
  const clustered = await startGatewayProcess(upstreamPort, { workers: 2 });
  try {
    const target = (name: string, gateway: GatewayProcess) => ({ name, origin: gateway.origin, request: scenarios.a.request('gateway', gateway.apiKey) });
    const load = await loadTargetsInTurn([target('1 worker', single), target('WORKERS=2', clustered)], { ...options, label: '[workers]' });
    const one = load['1 worker'];
    const two = load['WORKERS=2'];
    return {
      scenario: 'a',
      connections: options.connections,
      oneWorkerRps: one.requestsPerSecond,
      twoWorkersRps: two.requestsPerSecond,
      speedup: Math.round((100 * two.requestsPerSecond) / one.requestsPerSecond) / 100,
      failures: [one, two].reduce((sum, summary) => sum + summary.non2xx + summary.errors + summary.timeouts + summary.mismatches, 0),
    };
  } finally {
    await clustered.stop();
  }
}
