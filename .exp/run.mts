import { startBenchServer } from '/work/main/scripts/bench/start-bench-server.ts';
import { runLoad } from '/work/main/scripts/bench/measure-throughput.ts';
import { scenarios } from '/work/main/scripts/bench/scenarios.ts';
import { spawn } from 'node:child_process';
const up = await startBenchServer('upstream');
const proxy = await startBenchServer('proxy', [String(up.port)]);
const modes = process.argv.slice(2);
const kids = modes.map((m, i) => spawn(process.execPath, ['--import', 'tsx', '/work/main/.exp/express-floor.mts', String(up.port), m, String(7301 + i)], { cwd: '/work/main', stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } }));
await new Promise((res) => setTimeout(res, 3000));
const req = scenarios.a.request('direct', 'x');
const targets: Array<[string, string]> = [['proxy', `http://127.0.0.1:${proxy.port}`], ...modes.map((m, i) => [m, `http://127.0.0.1:${7301 + i}`] as [string, string])];
for (const [name, origin] of targets) {
  await runLoad(origin, req, { connections: 50, durationSeconds: 1 });
  const run = await runLoad(origin, req, { connections: 50, durationSeconds: 5 });
  console.log(name, Math.round(run.okResponses / run.seconds), 'non2xx', run.non2xx, run.errors);
}
kids.forEach((k) => k.kill()); await proxy.stop(); await up.stop(); process.exit(0);
