import type { SoakSample } from './gateway-sampler.js';
import type { SoakResults } from './soak-results.js';
import { sparkline } from './sparkline.js';
import { fdPeakTolerance, rssGrowthLimit, signedPercent } from './soak-verdict.js';

/**
 * soak/REPORT.md, from results.json's data alone: the verdict, the figures, how they were judged. Written
 * by every run, so it holds no commentary on a particular run (that goes in soak/README.md).
 */
export function renderSoakReport(results: SoakResults): string {
  const { options, verdict, machine } = results;
  const { rss, fds } = verdict;
  const measured = results.samples.filter((sample) => sample.phase === 'warmup' || sample.phase === 'load');
  return `# Soak test (issue 10, item 7)

**Verdict: ${verdict.pass ? 'PASS' : 'FAIL'}.** ${minutes(options.durationSeconds)} of mixed load (the first ${minutes(options.warmupSeconds)} warm-up) with ${options.concurrency} requests
always in flight: ${count(results.requests.total)} requests, ${results.requests.failed} unexpected failures. RSS ${signedPercent(rss.growth)} from after the warm-up to
the end of the load (limit +${rssGrowthLimit * 100}%); open descriptors at rest ${fds.idleBefore} before the load and ${fds.idleAfter} after it.

- Command: \`${results.command}\`
- Date: ${machine.date}
- Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.totalMemoryGb} GB RAM, Node ${machine.node}, ${machine.platform}
- Gateway: the production bundle as \`npm start\` runs it (NODE_ENV=production, LOG_LEVEL=warn, SQLite in a temp
  directory), pid ${results.gateway.pid}; samples every ${options.sampleSeconds} s

## Checks

| Check | Measured | |
|---|---|---|
${verdict.checks.map((check) => `| ${check.name} | ${check.measured} | ${check.pass ? 'PASS' : 'FAIL'} |`).join('\n')}
${rssWindowTooShort(results) ? `\n${rssWindowWarning(results)}\n` : ''}
## Memory and descriptors

| Moment | at s | RSS MB | open fds | TCP conns | listening | other TCP | unix sockets | files | pipes | anon inodes | gateway CPU s |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${results.points.map(({ label, sample }) => pointRow(label, sample)).join('\n')}

The windows the checks compare (${rss.quarterSamples} samples each, ${options.sampleSeconds * rss.quarterSamples} s):

| | first quarter after warm-up | last quarter of the load | change |
|---|---:|---:|---:|
| RSS MB, lowest (checked) | ${rss.afterWarmup.lowMb} | ${rss.end.lowMb} | ${signedPercent(rss.growth)} |
| RSS MB, median | ${rss.afterWarmup.medianMb} | ${rss.end.medianMb} | ${signedPercent(rss.end.medianMb / rss.afterWarmup.medianMb - 1)} |
| RSS MB, highest | ${rss.afterWarmup.highMb} | ${rss.end.highMb} | ${signedPercent(rss.end.highMb / rss.afterWarmup.highMb - 1)} |
| descriptors other than TCP connections, highest (checked) | ${fds.firstQuarterMax} | ${fds.lastQuarterMax} | ${signed(fds.lastQuarterMax - fds.firstQuarterMax)} |
| TCP connections, highest (checked) | ${fds.connectionsFirstQuarterMax} | ${fds.connectionsLastQuarterMax} | ${signed(fds.connectionsLastQuarterMax - fds.connectionsFirstQuarterMax)} |

VmHWM, the kernel's record of the gateway's highest RSS over its whole life: ${results.gateway.vmHwmMb.toFixed(1)} MB. Connections all closed
${settleText(results.timeline.settleBefore)} after the priming requests and ${settleText(results.timeline.settleAfter)} after the load.

Under load (warm-up included; ${measured.length} samples, each column the highest of its samples):

\`\`\`text
RSS MB     ${range(measured.map((sample) => sample.rssMb))}  ${sparkline(measured.map((sample) => sample.rssMb))}
open fds   ${range(measured.map((sample) => sample.fds.total))}  ${sparkline(measured.map((sample) => sample.fds.total))}
TCP conns  ${range(measured.map((sample) => sample.fds.established))}  ${sparkline(measured.map((sample) => sample.fds.established))}
\`\`\`

${minuteTable(results)}

## Requests

${results.requests.perSecond.toFixed(0)} requests per second over the load (not a throughput figure: the machine is shared, and the mix
holds slow kinds: the built-in model streams with 5 ms between words). Each answer is checked beyond its status
(text received, a stream's final event, a PNG's signature, the refusal's status); a priming pass sent each kind once
before the load (${results.priming.failed} of ${results.priming.total} failed).

| Kind | requests | failed | median ms | p99 ms | max ms |
|---|---:|---:|---:|---:|---:|
${results.requests.kinds.map((kind) => `| ${kind.name} | ${count(kind.requests)} | ${kind.failed} | ${kind.medianMs} | ${kind.p99Ms} | ${kind.maxMs} |`).join('\n')}
${failureList(results)}
Gateway log at LOG_LEVEL=warn: ${logText(results)}

## How it runs and is judged

\`npm run soak\` (scripts/soak/run-soak.ts) starts the bench's fake OpenAI upstream and the gateway's production bundle,
each in its own process (scripts/bench/), with the bench's config plus the built-in offline provider. It sends each
kind of request once, waits until the gateway has no connection open, and samples "at rest before". Then
${options.concurrency} loops each send one request after another for ${options.durationSeconds} s, the kinds dealt from a shuffled deck that holds each
as many times as its weight. The gateway's VmRSS, its open descriptors (\`/proc/<pid>/fd\`, sockets sorted by TCP state
from \`/proc/<pid>/net/tcp*\`) and its CPU time are sampled every ${options.sampleSeconds} s. After the load it waits again (up to ${options.settleSeconds} s)
for every connection to close and samples "at rest after". Waiting takes about a minute: the fake upstream's
65 s keep-alive hint keeps the gateway's pooled upstream connections for 64 s after their last use.

- **RSS**: the lowest sample of the last quarter of post-warm-up samples against the lowest of the first quarter
  must grow less than ${rssGrowthLimit * 100}%. Under load RSS saw-tooths: V8 lets garbage pile up for a minute or so before a full
  collection, so any one sample, or a median, says more about when the collector last ran than about what the
  process keeps. The lows are what it keeps after collecting, and a leak lifts them.
- **Descriptors under load**: connections are pooled at both ends (undici keeps up to about two per request in
  flight, in the clients' pools and in the gateway's upstream pool), so their number follows timing. The highest
  count of the other descriptors (files, pipes, event fds…) in the last quarter may exceed the first quarter's by
  ${fdPeakTolerance} at most (uploads and image files in flight), and connections' highest by the concurrency (${options.concurrency}) at most.
- **Descriptors at rest**: once every connection has closed after the load, the count must be no higher than
  before the load, which was taken after one request of each kind (so SQLite's files, the image directory and
  lazily loaded modules are open in both). A leaked socket or file handle stays open and fails this check.
- **Failures**: any answer that is not the expected one fails the run. The script exits 1 when any check fails.
`;
}

/** Under this load V8 runs a full collection every minute or two; a window shorter than that may hold none. */
const shortestRssWindowSeconds = 120;

export function rssWindowTooShort(results: Pick<SoakResults, 'options' | 'verdict'>): boolean {
  return results.options.sampleSeconds * results.verdict.rss.quarterSamples < shortestRssWindowSeconds;
}

export function rssWindowWarning(results: Pick<SoakResults, 'options' | 'verdict'>): string {
  const seconds = results.options.sampleSeconds * results.verdict.rss.quarterSamples;
  return `Note: the RSS check compares quarters of ${seconds} s, shorter than the ${shortestRssWindowSeconds} s it takes under this load to be sure of a full garbage collection in each, so its result means little here; the default 10-minute run has quarters of over 2 minutes.`;
}

function pointRow(label: string, sample: SoakSample): string {
  const { fds } = sample;
  const cells = [fds.total, fds.established, fds.listening, fds.otherSockets, fds.unixSockets, fds.files, fds.pipes, fds.anonymous, sample.cpuSeconds];
  return `| ${label} | ${sample.seconds} | ${sample.rssMb.toFixed(1)} | ${cells.join(' | ')} |`;
}

/** The last sample of every minute from the start of the load to the end of the run. */
function minuteTable(results: SoakResults): string {
  const start = results.timeline.loadStartedAt;
  const byMinute = new Map<number, SoakSample>();
  for (const sample of results.samples) {
    if (sample.seconds > start) byMinute.set(Math.ceil((sample.seconds - start) / 60), sample);
  }
  const rows = [...byMinute].map(
    ([minute, sample]) => `| ${minute} | ${sample.phase} | ${sample.rssMb.toFixed(1)} | ${sample.fds.total} | ${sample.fds.established} | ${count(sample.requests)} |`,
  );
  return `The last sample of each minute from the start of the load (every sample is in results.json):

| minute | phase | RSS MB | open fds | TCP conns | requests so far |
|---:|---|---:|---:|---:|---:|
${rows.join('\n')}`;
}

function failureList(results: SoakResults): string {
  const lines = results.requests.kinds.flatMap((kind) => kind.failures.map((failure) => `- ${kind.name}: ${failure.count} × \`${failure.message}\``));
  return lines.length === 0 ? '' : `\nFailures:\n\n${lines.join('\n')}\n`;
}

function logText(results: SoakResults): string {
  const { log } = results.gateway;
  if (log.lines === 0) return 'nothing.';
  return `${log.lines} lines:\n\n${log.groups.map((group) => `- ${group.count} × ${group.level}: ${group.message}`).join('\n')}\n`;
}

function settleText(settle: { seconds: number; idle: boolean }): string {
  return settle.idle ? `${settle.seconds.toFixed(0)} s` : `not within ${settle.seconds.toFixed(0)} s (see "at rest")`;
}

function range(values: number[]): string {
  return `${Math.min(...values).toFixed(0).padStart(3)}–${Math.max(...values).toFixed(0).padEnd(3)}`;
}

const minutes = (seconds: number) => `${Number((seconds / 60).toFixed(1))} min`;
const count = (value: number) => value.toLocaleString('en-GB');
const signed = (value: number) => `${value > 0 ? '+' : ''}${value}`;
