// A test reporter that prints, once the run is over, the slowest test files by wall time: what to look at
// first when the suite (and CI, which must stay under 30 minutes) gets slower. scripts/run-tests.mjs adds it
// beside the spec reporter. Each file runs in a process of its own, reported as a top-level test named by
// its path (absolute on Node 20, relative on Node 24), whose `test:complete` carries the file's duration.
import { resolve } from 'node:path';

const shown = 15;

export default async function* slowestFiles(source) {
  const durations = new Map();
  for await (const event of source) {
    const { name, file, nesting, details } = event.data ?? {};
    if (event.type === 'test:complete' && nesting === 0 && file && resolve(name) === file) durations.set(file, details.duration_ms);
  }
  if (durations.size === 0) return;
  const slowest = [...durations].sort(([, a], [, b]) => b - a).slice(0, shown);
  const total = [...durations.values()].reduce((sum, ms) => sum + ms, 0);
  const cwd = `${process.cwd()}/`;
  yield `\n# slowest test files (wall time each; ${durations.size} files, ${(total / 60_000).toFixed(1)} min summed over the parallel lanes)\n`;
  for (const [file, ms] of slowest) yield `#   ${(ms / 1000).toFixed(1).padStart(6)} s  ${file.replace(cwd, '')}\n`;
}
