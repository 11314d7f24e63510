import type { BenchResults } from './bench-results.js';
import { renderBatchTable } from './render-batch-table.js';
import { targetNames } from './scenarios.js';
import { ms, problems, row, signed } from './table-cells.js';

/** The results as markdown: printed at the end of a run and pasted into bench/README.md. */
export function renderTable(results: BenchResults): string {
  const { machine, settings } = results;
  const lines = [
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.totalMemoryGb} GB, Node ${machine.node}, ${machine.date}`,
    `Load average (1/5/15 min): ${results.loadAverage.atStart.join(' / ')} at the start, ${results.loadAverage.atEnd.join(' / ')} at the end`,
  ];
  if (results.scenarios.length === 0) lines.push(`Run took ${results.elapsedSeconds} s`);
  else {
    lines.push(
      `Settings: ${settings.connections} connections, ${settings.rounds} round(s) × ${settings.durationSeconds} s per target after ${settings.warmupSeconds} s warm-up` +
        `${settings.workers ? `, WORKERS=${settings.workers}` : ''}; run took ${results.elapsedSeconds} s`,
      '',
      '| Scenario | Target | req/s | median ms | p99 ms | added median ms | TTFB median ms | TTFB p99 ms | non-2xx/err/timeout/incomplete | gateway peak RSS MB |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
  }
  for (const scenario of results.scenarios) {
    for (const target of targetNames) {
      const load = scenario.load[target];
      const ttfb = scenario.ttfb?.[target];
      const label = target !== 'gateway' && scenario.baselineNote ? `${target} (upstream chat stream)` : target;
      lines.push(
        row([
          target === 'direct' ? `(${scenario.id}) ${scenario.title}` : '',
          label,
          load.requestsPerSecond.toFixed(0),
          ms(load.medianMs),
          ms(load.p99Ms),
          target === 'direct' ? '—' : signed(scenario.addedMedianMs[target]),
          ttfb ? ms(ttfb.medianMs) : '—',
          ttfb ? ms(ttfb.p99Ms) : '—',
          problems(load) + (ttfb?.failures ? ` (TTFB failures ${ttfb.failures})` : ''),
          target === 'gateway' ? scenario.gatewayPeakRssMb.toFixed(0) : '',
        ]),
      );
    }
  }

  const single = results.singleConnection;
  if (single) {
    lines.push(
      '',
      `| (${single.scenario}) at 1 connection | req/s | mean ms (= 1/rps) | added mean ms | median ms | p99 ms | non-2xx/err/timeout/incomplete |`,
      '|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const target of targetNames) {
      const load = single.load[target];
      lines.push(
        row([
          target,
          load.requestsPerSecond.toFixed(0),
          ms(load.meanMsPerRequest),
          target === 'direct' ? '—' : signed(single.addedMeanMs[target]),
          ms(load.medianMs),
          ms(load.p99Ms),
          problems(load),
        ]),
      );
    }
  }
  const scaling = results.workerScaling;
  if (scaling) {
    lines.push(
      '',
      `| (${scaling.scenario}) gateway, ${scaling.connections} connections | 1 worker req/s | WORKERS=2 req/s | speed-up | non-2xx/err/timeout/incomplete |`,
      '|---|---:|---:|---:|---:|',
      row(['', scaling.oneWorkerRps.toFixed(0), scaling.twoWorkersRps.toFixed(0), `${scaling.speedup.toFixed(2)}×`, String(scaling.failures)]),
    );
  }
  if (results.gateway) lines.push('', `Gateway peak RSS (VmHWM over the whole run): ${results.gateway.peakRssMb.toFixed(0)} MB`);
  if (results.batch) lines.push('', renderBatchTable(results.batch));
  return lines.join('\n');
}
