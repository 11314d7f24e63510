// The package as a user gets it from the registry: `npm pack`, installed into an empty prefix, then run by
// its command (`npx unified-model-api` runs the same bin) and driven with the openai SDK.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { holdsSecretsShownIn } from './helpers/exposure.js';
import { spawnGateway } from './helpers/spawn-gateway.js';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const work = await mkdtemp(join(tmpdir(), 'npm-package-'));
const prefix = join(work, 'prefix');
const installed = join(prefix, 'node_modules/unified-model-api');
const bin = join(prefix, 'node_modules/.bin/unified-model-api');
let packed: string[] = [];

before(async () => {
  // --ignore-scripts: prepack would rebuild dist/ under the tests that serve it; the test runner built
  // dist/ and build/ from these sources already.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root });
  const [{ filename, files }] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = files.map((file) => file.path);
  // Only the registry: packages come from npm's cache when it has them. --ignore-scripts and the copied
  // addon: better-sqlite3 12 compiles SQLite on install (about 4 minutes on CI's two cores), which the
  // project's own install did already for this Node; every other file is what a user's install writes.
  await mkdir(prefix);
  await run('npm', ['install', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(work, filename)], { cwd: work });
  const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  const version = async (base: string) => JSON.parse(await readFile(join(base, 'node_modules/better-sqlite3/package.json'), 'utf8')).version;
  assert.equal(await version(prefix), await version(root), 'the addon is copied from the same better-sqlite3 version');
  await mkdir(join(prefix, 'node_modules/better-sqlite3/build/Release'), { recursive: true });
  await copyFile(join(root, addon), join(prefix, addon));
});

after(() => rm(work, { recursive: true, force: true }));

/** The text of every non-test TypeScript source under `folder`. */
function* sourcesOf(folder: string): Generator<string> {
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield readFileSync(join(entry.parentPath, entry.name), 'utf8');
  }
}

test('the tarball holds the built server, console and docs, and no tests or sources', () => {
  for (const file of ['bin/unified-model-api.mjs', 'build/gateway.mjs', 'build/keys.mjs', 'dist/console/index.html', 'dist/docs/index.html', 'generated/openapi.json', 'generated/openapi.yaml', 'catalog/models/openai.yaml', 'README.md', 'SECURITY.md']) {
    assert.ok(packed.includes(file), `${file} is packed`);
  }
  // What the bundle loads from beside itself at run time (worker threads, the spec, the catalog): each path
  // the server joins to its root must be in the tarball, or the installed gateway fails only when it first
  // needs that file (the SQLite worker thread was missing, found by review: reports and batches on SQLite).
  const joinedToRoot = [...sourcesOf('server')].flatMap((source) => [...source.matchAll(/join\(projectRoot, '([^']+)'\)/g)].map((match) => match[1]));
  assert.ok(joinedToRoot.length >= 5, `found the paths the server joins to its root: ${joinedToRoot.join(', ')}`);
  for (const path of joinedToRoot) assert.ok(packed.some((file) => file === path || file.startsWith(`${path}/`)), `${path} (loaded at run time) is packed`);
  const unwanted = packed.filter((path) => /^(test|scripts|client|soak|bench)\/|\.ts$|^tsconfig/.test(path));
  assert.deepEqual(unwanted, []);
});

test('--version and --help answer without starting anything', async () => {
  const { version } = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { version: string };
  assert.equal((await run(bin, ['--version'])).stdout.trim(), version);
  const { stdout } = await run(bin, ['--help']);
  for (const flag of ['--config', '--port', '--host', '--data-dir', 'keys']) assert.match(stdout, new RegExp(flag));
  await assert.rejects(run(bin, ['--prot', '1']), /Unknown option '--prot'/);
});

test('the installed command serves the built-in model offline, with a key from its keys subcommand', async () => {
  const dataDir = join(work, 'data');
  const created = await run(bin, ['--data-dir', dataDir, 'keys', 'create', '--name', 'npx', '--json'], { cwd: work });
  holdsSecretsShownIn(created.stdout);
  const { key } = JSON.parse(created.stdout) as { key: string };

  // The flags, not the environment: spawnGateway's PORT and HOST would be overridden by them.
  const gateway = await spawnGateway({}, { args: [bin, '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], cwd: work });
  try {
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.origin}/v1` });
    const completion = await client.chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content: 'Hello package' }] });
    assert.equal(completion.choices[0].message.content, 'You said: Hello package');
    for (const page of ['/docs/', '/console/', '/openapi.yaml']) assert.equal((await fetch(`${gateway.origin}${page}`)).status, 200, page);
    // A usage report is read on SQLite's worker thread, whose script the bundle loads from beside itself.
    const report = await waitForUsage(gateway.origin, key);
    assert.equal(report.data.reduce((sum, bucket) => sum + bucket.requests, 0), 1);
  } finally {
    gateway.child.kill('SIGTERM');
    assert.equal(await gateway.exited, 0);
  }
});

/** The caller's usage report once the chat's ledger row is in (rows are written about once a second). */
async function waitForUsage(origin: string, key: string): Promise<{ data: Array<{ requests: number }> }> {
  for (let attempt = 0; ; attempt++) {
    const answer = await fetch(`${origin}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(answer.status, 200, await answer.clone().text());
    const report = (await answer.json()) as { data: Array<{ requests: number }> };
    if (report.data.length > 0 || attempt === 50) return report;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
