import type { BatchScenarioResult } from './bench-results.js';
import { ms, problems, row } from './table-cells.js';

/** Scenario (f) as markdown: the batch's pace and proof of work, and interactive latency without and with it. */
export function renderBatchTable(result: BatchScenarioResult): string {
  const { settings, baseline } = result;
  const lines = [
    `(${result.id}) ${result.title}: ${settings.lines} lines per batch, batches.lines_in_flight ${settings.linesInFlight}, ` +
      `interactive ${settings.interactiveRequest} paced at ${settings.interactiveRate} req/s over ${settings.interactiveConnections} connections ` +
      `(baseline ${settings.baselineSeconds} s); gateway peak RSS ${result.gatewayPeakRssMb.toFixed(0)} MB`,
    '',
    '| Batch API | lines/s (create → seen ended) | lines/s (created_at → ended_at) | seconds | succeeded / not | ledger rows with batch_id (2xx) |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const run of result.runs) {
    lines.push(
      row([
        run.title,
        run.linesPerSecond.toFixed(0),
        run.serverLinesPerSecond.toFixed(0),
        run.clientSeconds.toFixed(2),
        `${run.succeeded} / ${run.failed}`,
        `${run.ledgerRows} (${run.ledgerOkRows})${run.ledgerRowsMatch ? '' : ' MISMATCH'}`,
      ]),
    );
  }
  lines.push(
    '',
    '| Interactive requests | req/s | median ms | p99 ms | median × baseline | p99 × baseline | responses | non-2xx/err/timeout/incomplete |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    row(['no batch (baseline)', baseline.requestsPerSecond.toFixed(0), ms(baseline.medianMs), ms(baseline.p99Ms), '1', '1', String(baseline.responses), problems(baseline)]),
  );
  for (const run of result.runs) {
    const load = run.interactive;
    lines.push(
      row([
        `during the ${run.api} batch`,
        load.requestsPerSecond.toFixed(0),
        ms(load.medianMs),
        ms(load.p99Ms),
        run.interactiveVsBaseline.median.toFixed(2),
        run.interactiveVsBaseline.p99.toFixed(2),
        String(load.responses),
        problems(load),
      ]),
    );
  }
  const after = result.baselineAfter;
  lines.push(
    row([
      'no batch, after them (drift)',
      after.requestsPerSecond.toFixed(0),
      ms(after.medianMs),
      ms(after.p99Ms),
      (after.medianMs / baseline.medianMs).toFixed(2),
      (after.p99Ms / baseline.p99Ms).toFixed(2),
      String(after.responses),
      problems(after),
    ]),
  );
  return lines.join('\n');
}
