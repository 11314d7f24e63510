// `npm run bench`: throughput, latency, time to first byte and memory of the gateway against a fast fake
// upstream, with the upstream alone and a minimal Node.js proxy as baselines, on one machine. See
// bench/README.md for what each number means. Scenario (f) is a batch through the gateway's runner with
// interactive requests beside it. `--smoke` is a short run of scenario (a) and a small batch, for CI.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { readBenchOptions, type BenchOptions } from './bench-options.js';
import type { BenchResults, ScenarioResult, SingleConnectionResult } from './bench-results.js';
import type { GatewayLogSummary } from './gateway-log-digest.js';
import { describeMachine } from './machine-info.js';
import { measureWorkerScaling } from './measure-worker-scaling.js';
import { readProcessTreeMemory, RssSampler } from './process-memory.js';
import { renderTable } from './render-table.js';
import { repoRoot } from './repo-root.js';
import { runBatchScenario } from './run-batch-scenario.js';
import { runScenario, runSingleConnection, type BenchTargets } from './run-scenario.js';
import { batchScenario, scenarios, type ScenarioId } from './scenarios.js';
import { startBenchServer } from './start-bench-server.js';
import { startGatewayProcess } from './start-gateway-process.js';
import { round } from './stats.js';
import { evaluateTargetChecks, formatChecks } from './target-checks.js';

async function main(): Promise<void> {
  const options = readBenchOptions(process.argv.slice(2));
  const startedAt = performance.now();
  const machine = describeMachine();
  const loadAtStart = loadavg();

  const upstream = await startBenchServer('upstream');
  const pairwiseIds = options.scenarios.filter((id): id is ScenarioId => id !== batchScenario.id);
  const pairwise = pairwiseIds.length > 0 ? await runPairwiseScenarios(upstream.port, pairwiseIds, options) : undefined;
  // After the pairwise scenarios' gateway has stopped: scenario (f) runs a gateway of its own.
  const batch = options.scenarios.includes(batchScenario.id)
    ? await runBatchScenario(upstream.port, {
        lines: options.batchLines,
        linesInFlight: options.batchLinesInFlight,
        interactiveRate: options.batchInteractiveRate,
        interactiveConnections: 10,
        baselineSeconds: options.durationSeconds,
        // 5,000 requests for the default second of warm-up: about 0.5 s on a quiet machine.
        warmupRequests: Math.round(options.warmupSeconds * 5_000),
        apis: options.batchApis,
        timeoutSeconds: 600,
      })
    : undefined;
  await upstream.stop();

  const report: BenchResults = {
    kind: options.smoke ? 'smoke' : 'full',
    machine,
    settings: { ...options, workers: process.env.WORKERS },
    loadAverage: { atStart: loadAtStart.map((value) => round(value, 2)), atEnd: loadavg().map((value) => round(value, 2)) },
    elapsedSeconds: round((performance.now() - startedAt) / 1000, 1),
    scenarios: pairwise?.scenarios ?? [],
    singleConnection: pairwise?.singleConnection,
    workerScaling: pairwise?.workerScaling,
    batch,
    gateway: pairwise?.gateway,
    checks: evaluateTargetChecks(pairwise?.scenarios ?? [], pairwise?.singleConnection, options.connections),
  };
  const outputPath = resolve(repoRoot, options.outputFile);
  mkdirSync(dirname(outputPath), { recursive: true });
  writeFileSync(outputPath, `${JSON.stringify(report, null, 2)}\n`);

  console.log(`\n${renderTable(report)}`);
  if (pairwise) console.log(`\nTargets (issue 9; reported, not enforced):\n${formatChecks(report.checks)}`);
  warnAboutUnfairRuns(report);
  console.log(`\nWrote ${options.outputFile}`);
}

/** Scenarios (a)–(e) against direct, the proxy and one gateway, then (a) through WORKERS=2. */
async function runPairwiseScenarios(upstreamPort: number, ids: readonly ScenarioId[], options: BenchOptions) {
  const proxy = await startBenchServer('proxy', [String(upstreamPort)]);
  const gateway = await startGatewayProcess(upstreamPort);
  const gatewayMemory = new RssSampler(gateway.pid).start();
  const targets: BenchTargets = {
    origins: { direct: `http://127.0.0.1:${upstreamPort}`, proxy: `http://127.0.0.1:${proxy.port}`, gateway: gateway.origin },
    apiKey: gateway.apiKey,
    gatewayMemory,
  };
  process.stderr.write(`upstream :${upstreamPort}, proxy :${proxy.port}, gateway :${gateway.port} (pid ${gateway.pid})\n`);

  const results: ScenarioResult[] = [];
  let singleConnection: SingleConnectionResult | undefined;
  for (const id of ids) {
    results.push(await runScenario(scenarios[id], targets, options));
    if (id === 'a' && options.singleConnectionSeconds > 0) singleConnection = await runSingleConnection(scenarios.a, targets, options);
  }

  gatewayMemory.stop();
  const peakRssMb = readProcessTreeMemory(gateway.pid).peakRssMb;
  const workerScaling =
    options.workerScalingSeconds > 0
      ? await measureWorkerScaling(gateway, upstreamPort, { ...options, durationSeconds: options.workerScalingSeconds })
      : undefined;
  await gateway.stop();
  await proxy.stop();
  return {
    scenarios: results,
    singleConnection,
    workerScaling,
    gateway: { peakRssMb: round(peakRssMb, 1), peakSampledRssMb: round(gatewayMemory.overallPeakMb, 1), log: gateway.logSummary() },
  };
}

/** A run with failed requests measured something else than the happy path; say so loudly. */
function warnAboutUnfairRuns(report: BenchResults): void {
  for (const scenario of report.scenarios) {
    for (const [target, load] of Object.entries(scenario.load)) {
      const failed = load.non2xx + load.errors + load.timeouts + load.mismatches;
      if (failed > 0) console.log(`WARNING (${scenario.id}) ${target}: ${failed} requests were non-2xx, errors, timeouts or incomplete`);
    }
  }
  for (const run of report.batch?.runs ?? []) {
    const interactive = run.interactive.non2xx + run.interactive.errors + run.interactive.timeouts + run.interactive.mismatches;
    if (run.failed > 0) console.log(`WARNING (f) ${run.api}: ${run.failed} of ${run.lines} batch lines did not succeed`);
    if (!run.ledgerRowsMatch) console.log(`WARNING (f) ${run.api}: ${run.ledgerRows} ledger rows with the batch's ID (${run.ledgerOkRows} answered 2xx), expected ${run.lines}`);
    if (interactive > 0) console.log(`WARNING (f) ${run.api}: ${interactive} interactive requests were non-2xx, errors, timeouts or incomplete`);
  }
  noteGatewayLog('the gateway', report.gateway?.log);
  noteGatewayLog("scenario (f)'s gateway", report.batch?.gatewayLog);
}

function noteGatewayLog(which: string, log: GatewayLogSummary | undefined): void {
  if (!log || log.lines === 0) return;
  const groups = log.groups.map((group) => `  ${group.count} × ${group.level}: ${group.message}`).join('\n');
  console.log(`NOTE ${which} logged ${log.lines} line(s) at LOG_LEVEL=warn:\n${groups}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
