// Several gateways on one store (README "Many instances") open each other's sealed `compaction` items
// without a GATEWAY_COMPACTION_KEY: the seal's secret is made once in the store, whichever instance starts
// first. The item shapes are OpenAI's published spec (https://platform.openai.com/docs/api-reference/responses/compact).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../server/store/database.js';
import { migrateToLatest } from '../server/store/migrations.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { postgresSchemaUrl } from './helpers/test-databases.js';

type Item = Record<string, unknown>;

/** Where two gateways share one store: a PostgreSQL schema, or one SQLite file in a shared data directory. */
const stores: Array<[string, () => Promise<{ options: { databaseUrl?: string; dataDir?: string }; cleanup(): Promise<void> }>]> = [
  ['PostgreSQL', async () => {
    const { url, cleanup } = await postgresSchemaUrl();
    return { options: { databaseUrl: url }, cleanup };
  }],
  ['one SQLite file', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'shared-store-'));
    // Migrated beforehand: two connections migrating one SQLite file at once collide (a CLI-era limit,
    // not this test's subject); the secret's insert, made by each gateway at start-up, still races.
    const db = await openDatabase({ dataDir });
    await migrateToLatest(db);
    await db.destroy();
    return { options: { dataDir }, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
  }],
];

async function post(gateway: TestGateway, path: string, body: unknown): Promise<Response> {
  return fetch(`${gateway.origin}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function sealedItem(gateway: TestGateway): Promise<Item> {
  const compacted = await post(gateway, '/responses/compact', { model: 'builtin/echo', input: 'Remember the number 4711.' });
  assert.equal(compacted.status, 200);
  const item = ((await compacted.json()) as { output: Item[] }).output.at(-1)!;
  assert.equal(item.type, 'compaction');
  assert.match(item.encrypted_content as string, /^gw1\./);
  return item;
}

for (const [name, open] of stores) {
  describe(`compaction items across gateways on ${name}`, () => {
    let store: Awaited<ReturnType<typeof open>>;
    let a: TestGateway;
    let b: TestGateway;

    before(async () => {
      store = await open();
      // Both at once: whichever inserts the secret first, the other reads the same one back.
      [a, b] = await Promise.all([startGateway(store.options), startGateway(store.options)]);
    });
    after(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await store?.cleanup();
    });

    test('an item sealed by gateway A opens on gateway B, and the other way round', async () => {
      for (const [sealer, opener] of [[a, b], [b, a]] as const) {
        const item = await sealedItem(sealer);
        const next = await post(opener, '/responses', { model: 'builtin/echo', input: [item, { role: 'user', content: 'Continue.' }] });
        assert.equal(next.status, 200, await next.clone().text());
      }
    });

    test('GATEWAY_COMPACTION_KEY overrides the store secret: a gateway configured with one refuses the others\' items', async () => {
      const configured = await startGateway({ ...store.options, compactionKey: 'an operator-chosen secret' });
      try {
        const refused = await post(configured, '/responses', { model: 'builtin/echo', input: [await sealedItem(a), { role: 'user', content: 'Continue.' }] });
        assert.equal(refused.status, 400);
        assert.equal(((await refused.json()) as { error: { param: string } }).error.param, 'input[0].encrypted_content');
        const own = await post(configured, '/responses', { model: 'builtin/echo', input: [await sealedItem(configured), { role: 'user', content: 'Continue.' }] });
        assert.equal(own.status, 200);
      } finally {
        await configured.close();
      }
    });
  });
}
