// Issue 34, finding 5, for usage: any key of an account, a narrowed minted one included, read every key's
// usage in the account through `/v1/usage` and `/v1/usage/records` (and `key_id=` any sibling's). A key's
// reports cover its subtree now, from the rows and from the hourly rollups alike; the admin's cover all.
// On both stores, through real gateways.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { components } from '../generated/api.js';
import { adminApi } from './helpers/admin-api.js';
import { myKeys } from './helpers/my-keys.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { gatewayDatabases } from './helpers/test-databases.js';

type Schemas = components['schemas'];
const hour = 3_600;

for (const [storeName, openStore] of gatewayDatabases) {
  describe(`a key's usage is its subtree's on ${storeName}`, () => {
    let gateway: TestGateway;
    let cleanup: () => Promise<void>;
    /** Root R minted child C, which minted grandchild G; S is another root of the same account. */
    let keys: Record<'R' | 'C' | 'G' | 'S', Schemas['CreatedKey']>;
    /** Requests each key made: distinct, so every sum says whose requests it holds. */
    const made = { R: 1, C: 2, G: 3, S: 4 };

    before(async () => {
      const store = await openStore();
      cleanup = store.cleanup;
      gateway = await startGateway({ databaseUrl: store.url });
      const admin = adminApi(gateway);
      const account = await admin.createAccount({ name: 'usage tree' });
      const R = await admin.createKey(account.id, { name: 'R' });
      const C = await myKeys(gateway.origin, R.key).mint('C');
      const G = await myKeys(gateway.origin, C.key).mint('G');
      const S = await admin.createKey(account.id, { name: 'S' });
      keys = { R, C, G, S };
      for (const [name, count] of Object.entries(made) as Array<[keyof typeof made, number]>) {
        const client = new OpenAI({ apiKey: keys[name].key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
        for (let i = 0; i < count; i++) await client.chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content: `from ${name}` }] });
      }
      // The ledger is written in batches: wait until the admin sees every request.
      const total = Object.values(made).reduce((sum, count) => sum + count, 0);
      for (let tries = 0; tries < 50; tries++) {
        if (sum((await admin.usage({ account_id: account.id, group_by: 'key' })).data) === total) break;
        await sleep(100);
      }
    });
    after(async () => {
      await gateway?.close();
      await cleanup?.();
    });

    const get = async (name: keyof typeof made, path: string, accept = 'application/json') => {
      const response = await fetch(`${gateway.origin}/v1${path}`, { headers: { authorization: `Bearer ${keys[name].key}`, accept } });
      return { status: response.status, text: await response.text() };
    };
    /** Requests per key ID in a report grouped by key. */
    const reportOf = async (name: keyof typeof made, query: string) => {
      const answer = await get(name, `/usage?group_by=key&${query}`);
      assert.equal(answer.status, 200, answer.text);
      return Object.fromEntries((JSON.parse(answer.text) as Schemas['UsageReport']).data.map((row) => [row.key_id, row.requests]));
    };
    /** What each key's reports must hold: the requests of its subtree, by key. */
    const expected = (...names: Array<keyof typeof made>) => Object.fromEntries(names.map((name) => [keys[name].id, made[name]]));
    const subtrees = { R: ['R', 'C', 'G'], C: ['C', 'G'], G: ['G'], S: ['S'] } as const;

    test('the report covers the caller and the keys minted from it, from the rows and from the rollups', async () => {
      const now = Math.floor(Date.now() / 1000);
      // The default window ends inside this hour, which is read from the rows; one on whole hours reads only the rollups.
      const wholeHours = `from=${Math.floor(now / hour) * hour - hour}&to=${Math.ceil((now + 1) / hour) * hour + hour}`;
      for (const name of ['R', 'C', 'G', 'S'] as const) {
        for (const query of ['', wholeHours]) assert.deepEqual(await reportOf(name, query), expected(...subtrees[name]), `${name}'s report (${query || 'default window'})`);
      }
      const admin = adminApi(gateway);
      const all = await admin.usage({ account_id: keys.R.account_id, group_by: 'key' });
      assert.deepEqual(Object.fromEntries(all.data.map((row) => [row.key_id, row.requests])), expected('R', 'C', 'G', 'S'), 'the admin sees every key');
    });

    test('the records page and the NDJSON and CSV exports cover the same keys', async () => {
      for (const name of ['R', 'C', 'G', 'S'] as const) {
        const page = await get(name, '/usage/records');
        assert.equal(page.status, 200, page.text);
        assert.deepEqual(countBy((JSON.parse(page.text) as Schemas['UsageRecordList']).data.map((row) => row.key_id)), expected(...subtrees[name]), `${name}'s page`);
        const ndjson = await get(name, '/usage/records', 'application/x-ndjson');
        const lines = ndjson.text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { key_id: string });
        assert.deepEqual(countBy(lines.map((row) => row.key_id)), expected(...subtrees[name]), `${name}'s NDJSON export`);
        const csv = await get(name, '/usage/records', 'text/csv');
        const ids = Object.values(keys).map((key) => key.id);
        const csvKeys = csv.text.split('\n').flatMap((line) => ids.filter((id) => line.includes(id)));
        assert.deepEqual(countBy(csvKeys), expected(...subtrees[name]), `${name}'s CSV export`);
      }
    });

    test('key_id names a key of the subtree, and any other is a 404 naming the parameter', async () => {
      assert.deepEqual(await reportOf('R', `key_id=${keys.G.id}`), expected('G'));
      const page = await get('R', `/usage/records?key_id=${keys.C.id}`);
      assert.deepEqual(countBy((JSON.parse(page.text) as Schemas['UsageRecordList']).data.map((row) => row.key_id)), expected('C'));
      for (const [name, path] of [
        ['R', `/usage?key_id=${keys.S.id}`],
        ['R', `/usage/records?key_id=${keys.S.id}`],
        ['G', `/usage?key_id=${keys.R.id}`],
        ['C', `/usage/records?key_id=${keys.R.id}`],
      ] as const) {
        const answer = await get(name, path);
        assert.equal(answer.status, 404, `${name} ${path}: ${answer.text}`);
        const { error } = JSON.parse(answer.text) as { error: { param: string; type: string } };
        assert.equal(error.param, 'key_id');
      }
    });
  });
}

function sum(rows: Array<{ requests: number }>): number {
  return rows.reduce((total, row) => total + row.requests, 0);
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
