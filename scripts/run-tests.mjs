#!/usr/bin/env node
// Runs every *.test.ts under server/, client/ and test/ with Node's test runner (TypeScript through tsx).
// Node 20's --test takes no globs, so the files are listed here. Extra arguments narrow the run:
//   npm test -- test/openai-sdk.test.ts server/providers/anthropic/
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const roots = ['server', 'client', 'test'];

async function findTests(dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') found.push(...(await findTests(path)));
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) found.push(relative('.', path));
  }
  return found;
}

// A folder argument stands for the test files under it.
const expand = async (path) => ((await stat(path)).isDirectory() ? findTests(path) : [path]);
const requested = process.argv.slice(2);
const files = (await Promise.all((requested.length ? requested : roots).map(expand))).flat().sort();
// The console's browser tests load dist/, and the process tests run build/gateway.mjs as `npm start` does:
// build both from the sources as they are now.
for (const script of ['scripts/build-console.mjs', 'scripts/build-server.mjs']) {
  const build = spawn(process.execPath, [script], { stdio: 'inherit' });
  const [buildCode] = await once(build, 'exit');
  if (buildCode !== 0) process.exit(buildCode ?? 1);
}

// Every test process records what its gateways showed (test/helpers/exposure.ts); once all are done, one
// more run checks that no secret is among it.
const secretScanDir = await mkdtemp(join(tmpdir(), 'secret-scan-'));
const env = { ...process.env, NODE_ENV: 'test', SECRET_SCAN_DIR: secretScanDir };
// After the spec output, the slowest files and their wall time (scripts/test-file-times.mjs).
const fileTimesReporter = new URL('./test-file-times.mjs', import.meta.url).href;
const runTests = async (testFiles, { fileTimes = false } = {}) => {
  const child = spawn(process.execPath, [
    '--import', 'tsx', '--test', '--test-concurrency=2',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    ...(fileTimes ? [`--test-reporter=${fileTimesReporter}`, '--test-reporter-destination=stdout'] : []),
    ...testFiles,
  ], { stdio: 'inherit', env });
  const [code, signal] = await once(child, 'exit');
  return code ?? (signal ? 1 : 0);
};
const suiteCode = await runTests(files, { fileTimes: true });
const scanCode = await runTests(['test/after-suite/secret-exposure.check.ts']);
await rm(secretScanDir, { recursive: true, force: true });
process.exit(suiteCode || scanCode);
