import { runLoad, summariseLoad, type LoadRun, type LoadSummary } from './measure-throughput.js';
import type { BenchRequest, TargetName } from './scenarios.js';

export interface LoadTarget<Name extends string = TargetName> {
  name: Name;
  origin: string;
  request: BenchRequest;
}

export interface TurnOptions {
  connections: number;
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
  /** Progress label, e.g. `[a]`. */
  label: string;
}

/**
 * Loads each target in turn (direct, proxy, gateway, direct, proxy, gateway, …) so that whatever drifts
 * during the run (thermal throttling, another tenant on the host, the SQLite file growing) is shared
 * between them, after one unmeasured warm-up run per target (JIT, connection pools, lazy modules).
 */
export async function loadTargetsInTurn<Name extends string>(targets: readonly LoadTarget<Name>[], options: TurnOptions): Promise<Record<Name, LoadSummary>> {
  if (options.warmupSeconds > 0) {
    for (const target of targets) {
      await runLoad(target.origin, target.request, { connections: options.connections, durationSeconds: options.warmupSeconds });
    }
  }
  const runs = new Map<Name, LoadRun[]>(targets.map((target) => [target.name, []]));
  for (let round = 1; round <= options.rounds; round++) {
    for (const target of targets) {
      const run = await runLoad(target.origin, target.request, { connections: options.connections, durationSeconds: options.durationSeconds });
      runs.get(target.name)!.push(run);
      const problems = run.non2xx + run.errors + run.timeouts + run.mismatches;
      process.stderr.write(
        `${options.label} ${options.connections} conn, round ${round}/${options.rounds}, ${target.name}: ` +
          `${(run.okResponses / run.seconds).toFixed(0)} req/s${problems ? ` (${problems} non-2xx/errors/timeouts/mismatches)` : ''}\n`,
      );
    }
  }
  return Object.fromEntries(targets.map((target) => [target.name, summariseLoad(runs.get(target.name)!)])) as Record<Name, LoadSummary>;
}
