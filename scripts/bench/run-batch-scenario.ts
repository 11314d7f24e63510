import { setTimeout as sleep } from 'node:timers/promises';
import { batchApis, type BatchApi, type BatchApiName, type BatchProgress } from './batch-apis.js';
import type { BatchRun, BatchScenarioResult } from './bench-results.js';
import { benchGatewayConfig } from './bench-gateway-config.js';
import { countBatchLedgerRows } from './count-batch-ledger-rows.js';
import { runLoad, summariseLoad, type LoadSummary } from './measure-throughput.js';
import { RssSampler } from './process-memory.js';
import { batchScenario, scenarios } from './scenarios.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';
import { round } from './stats.js';

export interface BatchScenarioOptions {
  /** Lines per measured batch. */
  lines: number;
  /** `batches.lines_in_flight` of the gateway under test. */
  linesInFlight: number;
  /** Interactive requests per second (scenario (a)'s request), paced, before and during the batch. */
  interactiveRate: number;
  interactiveConnections: number;
  /** Seconds of interactive load alone: the baseline. */
  baselineSeconds: number;
  /** Unmeasured interactive requests first (unpaced); with them, one small unmeasured batch per API. 0: no warm-up. */
  warmupRequests: number;
  apis: readonly BatchApiName[];
  /** A batch not ended after this long fails the run. */
  timeoutSeconds: number;
}

/** How often the client asks for the batch's progress: the resolution of the client-side time. */
const pollMs = 100;
/** The runner's idle poll; it is woken when a batch is made and when a line ends, so this matters little. */
const runnerPollIntervalMs = 1_000;

/**
 * Scenario (f): a gateway of its own (the bench's config plus `batches.lines_in_flight`) against the same fast
 * fake upstream. First interactive requests alone (the baseline), then, per batch API, a batch of `lines`
 * lines with the same interactive requests beside it until the batch has ended: lines per second from
 * create to `ended`, the interactive latency against the baseline, and the ledger's rows with the batch's
 * `batch_id` counted in the store (one per line: the work was done, not skipped). Last, the interactive
 * requests alone again, to show how far the machine drifted meanwhile.
 */
export async function runBatchScenario(upstreamPort: number, options: BatchScenarioOptions): Promise<BatchScenarioResult> {
  const config = `${benchGatewayConfig(upstreamPort)}batches: { lines_in_flight: ${options.linesInFlight}, poll_interval_ms: ${runnerPollIntervalMs} }\n`;
  const gateway = await startGatewayProcess(upstreamPort, { config });
  const memory = new RssSampler(gateway.pid).start();
  const interactive = scenarios.a.request('gateway', gateway.apiKey);
  const load = (durationSeconds: number, until?: Promise<unknown>) =>
    runLoad(gateway.origin, interactive, { connections: options.interactiveConnections, durationSeconds, overallRate: options.interactiveRate, until });
  try {
    if (options.warmupRequests > 0) {
      // Counted, not timed, and unpaced: a few seconds at the paced rate are too few requests for the JIT. And
      // beside a small batch: with the batch warmed up on its own, after the interactive requests, the baseline
      // came out 2.5× slower than the same requests after the measured batch (the code both paths share was
      // still settling; bench/README.md).
      const warmupBatches = async () => {
        for (const name of options.apis) await runBatch(batchApis[name], gateway, Math.min(200, Math.ceil(options.lines / 10)), options.timeoutSeconds);
      };
      await Promise.all([
        warmupBatches(),
        runLoad(gateway.origin, interactive, { connections: options.interactiveConnections, durationSeconds: options.timeoutSeconds, amount: options.warmupRequests }),
      ]);
    }
    const baseline = summariseLoad([await load(options.baselineSeconds)]);
    report(`interactive alone: ${describe(baseline)}`);
    const runs: BatchRun[] = [];
    for (const name of options.apis) runs.push(await measureBatch(name, gateway, baseline, options, load));
    // Once more alone: on a shared machine, whether the baseline drifted while the batches ran.
    const baselineAfter = summariseLoad([await load(options.baselineSeconds)]);
    report(`interactive alone again: ${describe(baselineAfter)}`);
    return {
      id: batchScenario.id,
      title: batchScenario.title,
      settings: {
        lines: options.lines,
        linesInFlight: options.linesInFlight,
        runnerPollIntervalMs,
        interactiveRate: options.interactiveRate,
        interactiveConnections: options.interactiveConnections,
        interactiveRequest: `${interactive.path} (scenario (a))`,
        baselineSeconds: options.baselineSeconds,
        warmupRequests: options.warmupRequests,
      },
      baseline,
      runs,
      baselineAfter,
      gatewayPeakRssMb: round(memory.overallPeakMb, 1),
      gatewayLog: gateway.logSummary(),
    };
  } finally {
    memory.stop();
    await gateway.stop();
  }
}

async function measureBatch(
  name: BatchApiName,
  gateway: GatewayProcess,
  baseline: LoadSummary,
  options: BatchScenarioOptions,
  load: (durationSeconds: number, until?: Promise<unknown>) => ReturnType<typeof runLoad>,
): Promise<BatchRun> {
  const api = batchApis[name];
  const batch = runBatch(api, gateway, options.lines, options.timeoutSeconds);
  // Interactive requests from the moment the batch is sent until it is seen ended (the run is cut then).
  const during = summariseLoad([await load(options.timeoutSeconds + 5, batch)]);
  const { batchId, progress, clientSeconds } = await batch;
  const serverSeconds = (progress.endedAtMs! - progress.createdAtMs) / 1000;
  const ledger = await countBatchLedgerRows(gateway.dataDir, batchId, options.lines);
  const run: BatchRun = {
    api: name,
    title: api.title,
    batchId,
    lines: options.lines,
    succeeded: progress.succeeded,
    failed: progress.failed,
    clientSeconds: round(clientSeconds, 3),
    serverSeconds: round(serverSeconds, 3),
    linesPerSecond: round(options.lines / clientSeconds, 1),
    serverLinesPerSecond: round(options.lines / serverSeconds, 1),
    ledgerRows: ledger.rows,
    ledgerOkRows: ledger.okRows,
    ledgerRowsMatch: ledger.rows === options.lines && ledger.okRows === options.lines,
    interactive: during,
    interactiveVsBaseline: { median: round(during.medianMs / baseline.medianMs, 2), p99: round(during.p99Ms / baseline.p99Ms, 2) },
  };
  report(
    `${name}: ${run.lines} lines in ${run.clientSeconds} s = ${run.linesPerSecond} lines/s (gateway's clock ${run.serverLinesPerSecond}); ` +
      `${run.succeeded} succeeded, ${run.failed} not; ${run.ledgerRows} ledger rows with its batch_id; interactive meanwhile: ${describe(during)} ` +
      `(×${run.interactiveVsBaseline.median} median, ×${run.interactiveVsBaseline.p99} p99)`,
  );
  return run;
}

/** Sends a batch and polls it until it has ended; the client's seconds run from sending it to seeing it ended. */
async function runBatch(api: BatchApi, gateway: GatewayProcess, lines: number, timeoutSeconds: number): Promise<{ batchId: string; progress: BatchProgress; clientSeconds: number }> {
  const started = performance.now();
  const batchId = await api.submit(gateway.origin, gateway.apiKey, lines, 'bench-chat');
  const deadline = started + timeoutSeconds * 1000;
  let lastReport = started;
  for (;;) {
    const progress = await api.progress(gateway.origin, gateway.apiKey, batchId);
    const now = performance.now();
    if (progress.ended) return { batchId, progress, clientSeconds: (now - started) / 1000 };
    if (now > deadline) throw new Error(`batch ${batchId} had not ended after ${timeoutSeconds} s: ${JSON.stringify(progress)}`);
    if (now - lastReport >= 2_000) {
      lastReport = now;
      report(`  ${batchId}: ${progress.succeeded + progress.failed} / ${lines} lines after ${((now - started) / 1000).toFixed(0)} s`);
    }
    await sleep(pollMs);
  }
}

function describe(load: LoadSummary): string {
  const problems = load.non2xx + load.errors + load.timeouts + load.mismatches;
  return `${load.requestsPerSecond} req/s, median ${load.medianMs} ms, p99 ${load.p99Ms} ms${problems ? `, ${problems} non-2xx/errors/timeouts/incomplete` : ''}`;
}

function report(line: string): void {
  process.stderr.write(`[${batchScenario.id}] ${line}\n`);
}
