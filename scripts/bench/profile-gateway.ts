// `npm run bench:profile -- --scenario a --duration 10`: runs one scenario's load against the gateway
// started with `--cpu-prof`, then prints where its CPU time went (self time by function and by package).
// The profile is kept in bench/profiles/ for Chrome DevTools or speedscope. Profile before optimising.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad } from './measure-throughput.js';
import { summariseCpuProfile } from './summarise-cpu-profile.js';
import { repoRoot } from './repo-root.js';
import { scenarioIds, scenarios, type ScenarioId } from './scenarios.js';
import { startBenchServer } from './start-bench-server.js';
import { startGatewayProcess } from './start-gateway-process.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'a' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      top: { type: 'string', default: '30' },
      // V8's sampling interval in µs (its default is 1000): a smaller one gives more samples per run.
      interval: { type: 'string', default: '1000' },
    },
  });
  const id = values.scenario as ScenarioId;
  if (!scenarioIds.includes(id)) throw new Error(`--scenario must be one of ${scenarioIds.join(', ')}`);
  const profileDir = join(repoRoot, 'bench', 'profiles');
  mkdirSync(profileDir, { recursive: true });
  const before = new Set(readdirSync(profileDir));

  const upstream = await startBenchServer('upstream');
  const gateway = await startGatewayProcess(upstream.port, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-interval=${Number(values.interval)}`] });
  const request = scenarios[id].request('gateway', gateway.apiKey);
  await runLoad(gateway.origin, request, { connections: Number(values.connections), durationSeconds: 1 });
  const run = await runLoad(gateway.origin, request, { connections: Number(values.connections), durationSeconds: Number(values.duration) });
  await gateway.stop(); // the profile is written as the process exits
  await upstream.stop();

  const written = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile') && !before.has(name));
  if (written.length === 0) throw new Error('the gateway wrote no profile');
  // tsx's module loader runs on a thread of its own and writes a profile too; the main thread's is the largest.
  const path = written.map((name) => join(profileDir, name)).sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  console.log(`scenario (${id}): ${Math.round(run.okResponses / run.seconds)} req/s under --cpu-prof; profile ${path}\n`);
  console.log(summariseCpuProfile(path, Number(values.top)));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
