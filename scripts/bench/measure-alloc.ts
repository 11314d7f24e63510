// `npm run bench:alloc -- --scenario a`: what one request costs the gateway in numbers that do not depend on
// what else the machine is doing, so that two builds can be compared on a busy, shared VM where req/s cannot:
// - bytes allocated on the main thread's V8 heap per request, and what scavenges promoted and kept of them
//   (what GC time grows with), scavenges and mark-compacts per 1,000 requests (alloc-probe.mjs, loaded into
//   the gateway, over a fixed number of requests after a warm-up); GC pause and CPU µs per request are
//   printed beside them, but those move with the machine's load;
// - with `--instructions <n>`: instructions per request, counted by valgrind's callgrind over n requests
//   after a warm-up, in a second gateway (all its threads; instrumentation is switched on only for the
//   window). Timers, batching and the JIT follow the wall clock, so on a busy machine runs of one build
//   differ by tens of per cent (bench/README.md): only large differences show;
// - with `--sites`: the functions that allocated the most bytes per request (V8's sampling heap profiler);
// - with `--survivor-sites`: the same, keeping only objects that a scavenge did not collect (what "promoted"
//   grows with: compare two builds' lists to see which objects started to outlive the young generation);
// - with `--promises`: promises made and promise reactions run (async stages: an `await` resuming, a `then`
//   callback) per request, counted with async_hooks in a gateway of its own (the hooks slow it down);
//   `--promise-sites` adds where each was made (first three frames outside Node; slow: use ~2,000 requests).
// Options: --requests (default 20000), --warmup (5000), --connections (10), --runs (1, each a fresh
// gateway), --instructions (0 = skip), --instructions-warmup (2000), --callgrind-out <file> (keep the
// window's callgrind profile, for callgrind_annotate), --top (25).
import autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { onCleanup } from './cleanup.js';
import { scenarioIds, scenarios, type BenchRequest, type ScenarioId } from './scenarios.js';
import { startBenchServer } from './start-bench-server.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';

const probe = new URL('./alloc-probe.mjs', import.meta.url).pathname;

interface ProbeResult {
  allocatedBytes: number;
  gcs: Array<{ type: string; costMicros: number }>;
  promotedBytes: number;
  keptBytes: number;
  cpuMicros: number;
  sites?: Array<{ site: string; selfBytes: number }>;
  promises?: { made: number; reactions: number };
  promiseSites?: Array<{ site: string; count: number }>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'a' },
      requests: { type: 'string', default: '20000' },
      warmup: { type: 'string', default: '5000' },
      connections: { type: 'string', default: '10' },
      runs: { type: 'string', default: '1' },
      instructions: { type: 'string', default: '0' },
      'instructions-warmup': { type: 'string', default: '2000' },
      'callgrind-out': { type: 'string' },
      sites: { type: 'boolean', default: false },
      'survivor-sites': { type: 'boolean', default: false },
      promises: { type: 'boolean', default: false },
      'promise-sites': { type: 'boolean', default: false },
      top: { type: 'string', default: '25' },
    },
  });
  const id = values.scenario as ScenarioId;
  if (!scenarioIds.includes(id)) throw new Error(`--scenario must be one of ${scenarioIds.join(', ')}`);
  const requests = Number(values.requests);
  const connections = Number(values.connections);
  const upstream = await startBenchServer('upstream');

  for (let run = 1; run <= Number(values.runs); run++) {
    const gateway = await startGatewayProcess(upstream.port, { nodeArgs: [`--import=${probe}`] });
    const request = scenarios[id].request('gateway', gateway.apiKey);
    await send(gateway.origin, request, Number(values.warmup), connections);
    const heap = await probeWindow(gateway, () => send(gateway.origin, request, requests, connections));
    await gateway.stop();
    const scavenges = heap.gcs.filter((gc) => gc.type === 'Scavenge').length;
    const markCompacts = heap.gcs.filter((gc) => gc.type === 'MarkSweepCompact').length;
    const pauseMicros = heap.gcs.reduce((sum, gc) => sum + gc.costMicros, 0);
    console.log(
      `scenario (${id}) run ${run}: ${requests} requests after ${values.warmup}, ${connections} connections: ` +
        `${Math.round(heap.allocatedBytes / requests)} bytes allocated/request (scavenges promoted ${Math.round(heap.promotedBytes / requests)} and kept ${Math.round(heap.keptBytes / requests)} in the young generation), ` +
        `${((1000 * scavenges) / requests).toFixed(2)} scavenges and ${((1000 * markCompacts) / requests).toFixed(2)} mark-compacts per 1,000 requests, ` +
        `GC ${(pauseMicros / requests).toFixed(2)} µs/request, CPU ${(heap.cpuMicros / requests).toFixed(1)} µs/request (load-dependent)`,
    );
  }

  if (values.sites || values['survivor-sites']) {
    const gateway = await startGatewayProcess(upstream.port, {
      nodeArgs: [`--import=${probe}`],
      env: { ALLOC_PROBE_SITES: values['survivor-sites'] ? 'survivors' : '1' },
    });
    const request = scenarios[id].request('gateway', gateway.apiKey);
    await send(gateway.origin, request, Number(values.warmup), connections);
    const heap = await probeWindow(gateway, () => send(gateway.origin, request, requests, connections));
    await gateway.stop();
    const sampled = (heap.sites ?? []).reduce((sum, site) => sum + site.selfBytes, 0);
    const what = values['survivor-sites'] ? 'allocation that survived a scavenge' : 'allocation';
    console.log(`\nsampled ${what} by function (self bytes/request; sampled total ${Math.round(sampled / requests)}):`);
    for (const { site, selfBytes } of (heap.sites ?? []).slice(0, Number(values.top))) {
      console.log(`${String(Math.round(selfBytes / requests)).padStart(8)}  ${site}`);
    }
  }

  if (values.promises || values['promise-sites']) {
    const gateway = await startGatewayProcess(upstream.port, {
      nodeArgs: [`--import=${probe}`],
      env: { ALLOC_PROBE_PROMISES: values['promise-sites'] ? 'sites' : '1' },
    });
    const request = scenarios[id].request('gateway', gateway.apiKey);
    await send(gateway.origin, request, Number(values.warmup), connections);
    const heap = await probeWindow(gateway, () => send(gateway.origin, request, requests, connections));
    await gateway.stop();
    const { promises } = heap;
    if (!promises) throw new Error('the probe counted no promises');
    console.log(
      `scenario (${id}): ${(promises.made / requests).toFixed(2)} promises made and ${(promises.reactions / requests).toFixed(2)} promise reactions per request ` +
        `(${requests} requests after ${values.warmup}, ${connections} connections)`,
    );
    if (values['promise-sites']) {
      console.log('\npromises made per request by where they were made (first frames outside Node):');
      for (const { site, count } of (heap.promiseSites ?? []).slice(0, Number(values.top))) {
        console.log(`${(count / requests).toFixed(2).padStart(6)}  ${site}`);
      }
    }
  }

  const counted = Number(values.instructions);
  if (counted > 0) {
    const { instructions, answered } = await countInstructions(upstream.port, id, counted, Number(values['instructions-warmup']), connections, values['callgrind-out']);
    console.log(
      `scenario (${id}) under callgrind: ${answered} requests after ${values['instructions-warmup']}: ` +
        `${Math.round(instructions / answered).toLocaleString('en')} instructions/request (${(instructions / 1e9).toFixed(3)} G in all)`,
    );
  }
  await upstream.stop();
}

/**
 * Sends `count` requests over `connections` keep-alive connections and waits for every answer; resolves
 * with the number answered in whole. Fails on any other answer, and on connection errors unless
 * `tolerateErrors` (under valgrind a connection now and then is reset: those requests are not counted).
 */
async function send(origin: string, request: BenchRequest, count: number, connections: number, tolerateErrors = false): Promise<number> {
  let answered = 0;
  const instance = autocannon({
    url: `${origin}${request.path}`,
    method: 'POST',
    headers: request.headers,
    body: request.body,
    connections,
    amount: count,
    timeout: 120,
    verifyBody: request.isComplete,
  });
  instance.on('response', (_client: unknown, statusCode: number) => {
    if (statusCode >= 200 && statusCode < 300) answered += 1;
  });
  const result = await instance;
  const lost = result.errors + result.timeouts;
  const failed = result.non2xx + result.mismatches + (tolerateErrors ? 0 : lost);
  if (failed > 0) throw new Error(`${failed} of ${count} requests failed (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}, incomplete ${result.mismatches})`);
  if (lost > 0) console.warn(`${lost} of ${count} requests lost a connection; counting the ${answered - result.mismatches} answered`);
  return answered - result.mismatches;
}

/** Opens the probe's window (SIGUSR2), runs `load`, closes it and reads what the probe wrote. */
async function probeWindow(gateway: GatewayProcess, load: () => Promise<unknown>): Promise<ProbeResult> {
  const path = join(tmpdir(), `alloc-probe-${gateway.pid}.json`);
  rmSync(path, { force: true });
  onCleanup(() => rmSync(path, { force: true }));
  process.kill(gateway.pid, 'SIGUSR2');
  await sleep(50); // the signal is handled on the gateway's event loop, not at once
  await load();
  process.kill(gateway.pid, 'SIGUSR2');
  for (let waited = 0; !existsSync(path); waited += 50) {
    if (waited > 30_000) throw new Error('the gateway wrote no allocation probe (was alloc-probe.mjs loaded?)');
    await sleep(50);
  }
  await sleep(50); // written in one call, but make sure the write has finished
  return JSON.parse(readFileSync(path, 'utf8')) as ProbeResult;
}

/**
 * Runs another gateway under callgrind with instrumentation off, warms it up, switches instrumentation on
 * (callgrind_control -i on), sends `count` requests and dumps: the dump's total is the instructions of
 * those requests, all threads together (the ledger's writer thread included).
 */
async function countInstructions(
  upstreamPort: number,
  id: ScenarioId,
  count: number,
  warmup: number,
  connections: number,
  keepAs: string | undefined,
): Promise<{ instructions: number; answered: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const gateway = await startGatewayProcess(upstreamPort, {
    wrapper: ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(dir, 'callgrind.out')}`],
    healthTimeoutMs: 300_000,
    env: { USER: vgdbNames.USER },
  });
  const request = scenarios[id].request('gateway', gateway.apiKey);
  await send(gateway.origin, request, warmup, connections, true);
  callgrindControl(['-i', 'on', String(gateway.pid)]);
  const answered = await send(gateway.origin, request, count, connections, true);
  callgrindControl(['-d', String(gateway.pid)]);
  await gateway.stop();
  const dumps = readdirSync(dir).filter((name) => name.startsWith('callgrind.out.'));
  if (dumps.length === 0) throw new Error(`callgrind wrote no dump: ${readdirSync(dir).join(', ')}`);
  // The first dump is the one asked for; the one written at exit counts the shutdown.
  const first = dumps.sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()))[0]!;
  if (keepAs) copyFileSync(join(dir, first), keepAs);
  const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, first), 'utf8'));
  if (totals === null) throw new Error(`no totals in ${first}`);
  return { instructions: Number(totals[1]), answered };
}

/**
 * vgdb (callgrind_control's messenger) finds the process by a file named after USER and HOST, which must
 * agree on both sides; the gateway's HOST is its listening address (start-gateway-process.ts).
 */
const vgdbNames = { USER: 'bench', HOST: '127.0.0.1' };

/** callgrind_control waits until valgrind has seen the command, which it checks while the process runs. */
function callgrindControl(args: string[]): void {
  const result = spawnSync('callgrind_control', args, { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...vgdbNames } });
  if (process.env.DEBUG_CALLGRIND) console.log(result.stdout, result.stderr);
  if (result.status !== 0) throw new Error(`callgrind_control ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
