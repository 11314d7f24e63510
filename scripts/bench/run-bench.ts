// `npm run bench`: throughput, latency, time to first byte and memory of the gateway against a fast fake
// upstream, with the upstream alone and a minimal Node.js proxy as baselines, on one machine. See
// bench/README.md for what each number means. `--smoke` is a short run of scenario (a) for CI.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readBenchOptions } from './bench-options.js';
import type { BenchResults, ScenarioResult, SingleConnectionResult } from './bench-results.js';
import { describeMachine } from './machine-info.js';
import { measureWorkerScaling } from './measure-worker-scaling.js';
import { readProcessTreeMemory, RssSampler } from './process-memory.js';
import { renderTable } from './render-table.js';
import { repoRoot } from './repo-root.js';
import { runScenario, runSingleConnection, type BenchTargets } from './run-scenario.js';
import { scenarios } from './scenarios.js';
import { startBenchServer } from './start-bench-server.js';
import { startGatewayProcess } from './start-gateway-process.js';
import { round } from './stats.js';
import { evaluateTargetChecks, formatChecks } from './target-checks.js';

async function main(): Promise<void> {
  const options = readBenchOptions(process.argv.slice(2));
  const startedAt = performance.now();
  const machine = describeMachine();

  const upstream = await startBenchServer('upstream');
  const proxy = await startBenchServer('proxy', [String(upstream.port)]);
  const gateway = await startGatewayProcess(upstream.port);
  const gatewayMemory = new RssSampler(gateway.pid).start();
  const targets: BenchTargets = {
    origins: { direct: `http://127.0.0.1:${upstream.port}`, proxy: `http://127.0.0.1:${proxy.port}`, gateway: gateway.origin },
    apiKey: gateway.apiKey,
    gatewayMemory,
  };
  process.stderr.write(`upstream :${upstream.port}, proxy :${proxy.port}, gateway :${gateway.port} (pid ${gateway.pid})\n`);

  const results: ScenarioResult[] = [];
  let singleConnection: SingleConnectionResult | undefined;
  for (const id of options.scenarios) {
    results.push(await runScenario(scenarios[id], targets, options));
    if (id === 'a' && options.singleConnectionSeconds > 0) singleConnection = await runSingleConnection(scenarios.a, targets, options);
  }

  gatewayMemory.stop();
  const peakRssMb = readProcessTreeMemory(gateway.pid).peakRssMb;
  const workerScaling =
    options.workerScalingSeconds > 0
      ? await measureWorkerScaling(gateway, upstream.port, { ...options, durationSeconds: options.workerScalingSeconds })
      : undefined;
  await gateway.stop();
  const log = gateway.logSummary();
  await Promise.all([proxy.stop(), upstream.stop()]);

  const report: BenchResults = {
    kind: options.smoke ? 'smoke' : 'full',
    machine,
    settings: { ...options, workers: process.env.WORKERS },
    elapsedSeconds: round((performance.now() - startedAt) / 1000, 1),
    scenarios: results,
    singleConnection,
    workerScaling,
    gateway: { peakRssMb: round(peakRssMb, 1), peakSampledRssMb: round(gatewayMemory.overallPeakMb, 1), log },
    checks: evaluateTargetChecks(results, singleConnection, options.connections),
  };
  const outputPath = join(repoRoot, options.outputFile);
  mkdirSync(dirname(outputPath), { recursive: true });
  writeFileSync(outputPath, `${JSON.stringify(report, null, 2)}\n`);

  console.log(`\n${renderTable(report)}\n\nTargets (issue 9; reported, not enforced):\n${formatChecks(report.checks)}`);
  warnAboutUnfairRuns(report);
  console.log(`\nWrote ${options.outputFile}`);
}

/** A run with failed requests measured something else than the happy path; say so loudly. */
function warnAboutUnfairRuns(report: BenchResults): void {
  for (const scenario of report.scenarios) {
    for (const [target, load] of Object.entries(scenario.load)) {
      const failed = load.non2xx + load.errors + load.timeouts + load.mismatches;
      if (failed > 0) console.log(`WARNING (${scenario.id}) ${target}: ${failed} requests were non-2xx, errors, timeouts or incomplete`);
    }
  }
  const { log } = report.gateway;
  if (log.lines > 0) {
    const groups = log.groups.map((group) => `  ${group.count} × ${group.level}: ${group.message}`).join('\n');
    console.log(`NOTE the gateway logged ${log.lines} line(s) at LOG_LEVEL=warn:\n${groups}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
