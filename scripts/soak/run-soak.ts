// `npm run soak`: ten minutes of mixed traffic through the production gateway (every client protocol,
// streams, images, refusals, disconnects) while its RSS and open descriptors are sampled; passes when RSS
// grows less than 10% after the warm-up and descriptors do not grow. Writes soak/results.json and
// soak/REPORT.md; exits 1 on a failed check. Not run in CI: it takes ~13 minutes. See soak/REPORT.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describeMachine } from '../bench/machine-info.js';
import { readProcessTreeMemory } from '../bench/process-memory.js';
import { repoRoot } from '../bench/repo-root.js';
import { startBenchServer } from '../bench/start-bench-server.js';
import { startGatewayProcess } from '../bench/start-gateway-process.js';
import { round } from '../bench/stats.js';
import { GatewaySampler, type SoakPhase, type SoakSample } from './gateway-sampler.js';
import { renderSoakReport, rssWindowTooShort, rssWindowWarning } from './render-soak-report.js';
import { requestKinds } from './request-kinds.js';
import { RequestTally } from './request-tally.js';
import { runMixedLoad, sendEachKindOnce } from './run-mixed-load.js';
import { createSoakClients } from './soak-clients.js';
import { soakGatewayConfig } from './soak-gateway-config.js';
import { readSoakOptions } from './soak-options.js';
import type { SoakResults } from './soak-results.js';
import { judgeSoak } from './soak-verdict.js';
import { waitForIdle } from './wait-for-idle.js';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const options = readSoakOptions(argv);
  const upstream = await startBenchServer('upstream');
  const gateway = await startGatewayProcess(upstream.port, { config: soakGatewayConfig(upstream.port) });
  const clients = await createSoakClients(gateway.origin, gateway.apiKey);
  const tally = new RequestTally();
  const sampler = new GatewaySampler(gateway.pid, options.sampleSeconds * 1000, () => tally.requests).start();
  const atStart = sampler.samples[0];
  log(`gateway pid ${gateway.pid} at ${gateway.origin}: RSS ${atStart.rssMb} MB, ${atStart.fds.total} open fds`);

  const priming = new RequestTally();
  await sendEachKindOnce(requestKinds, clients, priming);
  const primingKinds = priming.summary(requestKinds.map((kind) => kind.name));
  if (priming.failed > 0) {
    for (const kind of primingKinds) for (const failure of kind.failures) console.error(`${kind.name}: ${failure.message}`);
    throw new Error(`${priming.failed} of ${requestKinds.length} kinds failed their first request; not starting the load`);
  }
  const settleBefore = await waitForIdle(gateway.pid, options.settleSeconds);
  const idleBefore = takeSample(sampler, 'idle-before');
  log(`${requestKinds.length} kinds answered once; at rest after ${settleBefore.seconds.toFixed(0)} s: RSS ${idleBefore.rssMb} MB, ${idleBefore.fds.total} fds`);

  sampler.phase = 'warmup';
  const loadStartedAt = performance.now();
  const loadStartedSecond = idleBefore.seconds;
  const warmupTimer = setTimeout(() => (sampler.phase = 'load'), options.warmupSeconds * 1000);
  const progress = setInterval(() => logProgress(sampler, tally), 60_000);
  log(`load: ${options.durationSeconds} s (${options.warmupSeconds} s warm-up), ${options.concurrency} in flight, sampling every ${options.sampleSeconds} s`);
  await runMixedLoad(requestKinds, clients, { concurrency: options.concurrency, deadline: loadStartedAt + options.durationSeconds * 1000, tally });
  clearTimeout(warmupTimer);
  clearInterval(progress);
  const loadSeconds = (performance.now() - loadStartedAt) / 1000;
  const endOfLoad = takeSample(sampler, 'load');
  sampler.phase = 'settling';
  log(`load done: ${tally.requests} requests, ${tally.failed} failed; RSS ${endOfLoad.rssMb} MB, ${endOfLoad.fds.total} fds`);

  const settleAfter = await waitForIdle(gateway.pid, options.settleSeconds);
  const idleAfter = takeSample(sampler, 'idle-after');
  sampler.stop();
  const vmHwmMb = readProcessTreeMemory(gateway.pid).peakRssMb;
  log(`at rest after ${settleAfter.seconds.toFixed(0)} s: RSS ${idleAfter.rssMb} MB, ${idleAfter.fds.total} fds`);
  await gateway.stop();
  await upstream.stop();

  const verdict = judgeSoak(sampler.samples, { before: idleBefore, after: idleAfter }, options.concurrency, tally.failed + priming.failed);
  const underLoad = sampler.samples.filter((sample) => sample.phase === 'load');
  const peak = underLoad.reduce((highest, sample) => (sample.rssMb > highest.rssMb ? sample : highest));
  const results: SoakResults = {
    kind: 'soak',
    command: `npm run soak${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`,
    machine: describeMachine(),
    options,
    gateway: { pid: gateway.pid, vmHwmMb: round(vmHwmMb, 1), log: gateway.logSummary() },
    timeline: {
      loadStartedAt: loadStartedSecond,
      warmupEndedAt: round(loadStartedSecond + options.warmupSeconds, 1),
      loadEndedAt: endOfLoad.seconds,
      settleBefore: { seconds: round(settleBefore.seconds, 1), idle: settleBefore.idle },
      settleAfter: { seconds: round(settleAfter.seconds, 1), idle: settleAfter.idle },
    },
    points: [
      { label: 'start: healthy, no request yet', sample: atStart },
      { label: 'at rest before the load (after one request of each kind)', sample: idleBefore },
      { label: 'first sample after the warm-up', sample: underLoad[0] },
      { label: 'highest RSS after the warm-up', sample: peak },
      { label: 'end of the load', sample: endOfLoad },
      { label: 'at rest after the load', sample: idleAfter },
    ],
    verdict,
    requests: {
      total: tally.requests,
      failed: tally.failed,
      perSecond: round(tally.requests / loadSeconds, 1),
      kinds: tally.summary(requestKinds.map((kind) => kind.name)),
    },
    priming: { total: priming.requests, failed: priming.failed },
    samples: sampler.samples,
  };
  writeReport(results, options.outDir);

  for (const check of verdict.checks) console.log(`${check.pass ? 'PASS' : 'FAIL'} ${check.name}: ${check.measured}`);
  for (const kind of results.requests.kinds) for (const failure of kind.failures) console.log(`  ${kind.name}: ${failure.count} × ${failure.message}`);
  if (rssWindowTooShort(results)) console.log(rssWindowWarning(results));
  return verdict.pass ? 0 : 1;
}

function takeSample(sampler: GatewaySampler, phase: SoakPhase): SoakSample {
  sampler.phase = phase;
  const sample = sampler.sample();
  if (!sample) throw new Error('the gateway has gone');
  return sample;
}

function logProgress(sampler: GatewaySampler, tally: RequestTally): void {
  const last = sampler.samples.at(-1)!;
  log(`${last.phase}: RSS ${last.rssMb} MB, ${last.fds.total} fds (${last.fds.established} established), ${tally.requests} requests, ${tally.failed} failed`);
}

function writeReport(results: SoakResults, outDir: string): void {
  const directory = isAbsolute(outDir) ? outDir : join(repoRoot, outDir);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(directory, 'REPORT.md'), renderSoakReport(results));
  log(`wrote ${join(directory, 'results.json')} and REPORT.md`);
}

function log(message: string): void {
  console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
