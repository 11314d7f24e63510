// The console's list of batches of every kind: GET /v1/account/batches (the caller's account's) and
// GET /admin/v1/batches (every account's, or one's), driven with the repository's typed client against a real
// gateway whose batches are made through the official Anthropic SDK. Every JSON answer is validated against
// the contract by the test gateway.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient } from '../client/index.js';
import { adminApi } from './helpers/admin-api.js';
import { ask, batchClient, batchTestConfig, ended } from './helpers/message-batches.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
before(async () => {
  gateway = await startGateway({ config: batchTestConfig() });
});
after(() => gateway.close());

const clientFor = (apiKey: string) => createClient({ baseUrl: gateway.origin, apiKey });

/** A new account with two keys, and a batch of `lines` echo requests made with the first key, run to its end. */
async function accountWithBatch(name: string, lines: number) {
  const admin = adminApi(gateway);
  const account = await admin.createAccount({ name });
  const first = (await admin.createKey(account.id, { name: 'first' })).key;
  const second = (await admin.createKey(account.id, { name: 'second' })).key;
  const sdk = batchClient(gateway, first);
  const created = await sdk.messages.batches.create({ requests: Array.from({ length: lines }, (_, index) => ({ custom_id: `line-${index}`, params: ask(`line ${index}`) })) });
  await ended(sdk, created.id);
  return { accountId: account.id, first, second, batchId: created.id };
}

describe('the batch overview', () => {
  let a: Awaited<ReturnType<typeof accountWithBatch>>;
  let b: Awaited<ReturnType<typeof accountWithBatch>>;
  let aSecondBatch: string;
  before(async () => {
    a = await accountWithBatch('team a', 3);
    b = await accountWithBatch('team b', 1);
    const sdk = batchClient(gateway, a.first);
    aSecondBatch = (await sdk.messages.batches.create({ requests: [{ custom_id: 'only', params: ask('again') }] })).id;
    await ended(sdk, aSecondBatch);
  });

  test("lists the account's batches, newest first, with counts and the results URL, to every key of the account", async () => {
    for (const key of [a.first, a.second]) {
      const { data, response } = await clientFor(key).GET('/v1/account/batches');
      assert.equal(response.status, 200);
      assert.deepEqual(data!.data.map((batch) => batch.id), [aSecondBatch, a.batchId]);
      assert.equal(data!.has_more, false);
      assert.equal(data!.last_id, a.batchId);
      const batch = data!.data[1];
      assert.equal(batch.kind, 'anthropic');
      assert.equal(batch.status, 'ended');
      assert.equal(batch.account_id, a.accountId);
      assert.deepEqual(batch.request_counts, { total: 3, processing: 0, succeeded: 3, errored: 0, canceled: 0, expired: 0 });
      assert.equal(batch.results_url, `${gateway.origin}/v1/messages/batches/${a.batchId}/results`);
      assert.ok(batch.ended_at! >= batch.created_at);
      assert.equal(batch.expires_at - batch.created_at, 24 * 3_600);
      assert.ok(!('output_file_id' in batch), 'an Anthropic batch has no files');
    }
  });

  test("never lists another account's batch, nor pages after one", async () => {
    const { data } = await clientFor(b.first).GET('/v1/account/batches');
    assert.deepEqual(data!.data.map((batch) => batch.id), [b.batchId]);
    const { response, error } = await clientFor(b.first).GET('/v1/account/batches', { params: { query: { after: a.batchId } } });
    assert.equal(response.status, 400);
    assert.equal((error as { error: { param: string } }).error.param, 'after');
  });

  test('pages by limit and after', async () => {
    const me = clientFor(a.first);
    const first = await me.GET('/v1/account/batches', { params: { query: { limit: 1 } } });
    assert.deepEqual(first.data!.data.map((batch) => batch.id), [aSecondBatch]);
    assert.equal(first.data!.has_more, true);
    const second = await me.GET('/v1/account/batches', { params: { query: { limit: 1, after: first.data!.last_id! } } });
    assert.deepEqual(second.data!.data.map((batch) => batch.id), [a.batchId]);
    assert.equal(second.data!.has_more, false);
  });

  test("the admin lists every account's batches, or one account's", async () => {
    const admin = clientFor(gateway.adminKey);
    const all = await admin.GET('/admin/v1/batches');
    assert.equal(all.response.status, 200);
    const ids = all.data!.data.map((batch) => batch.id);
    for (const id of [a.batchId, aSecondBatch, b.batchId]) assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
    assert.equal(all.data!.data.find((batch) => batch.id === b.batchId)!.account_id, b.accountId);
    const onlyB = await admin.GET('/admin/v1/batches', { params: { query: { account_id: b.accountId } } });
    assert.deepEqual(onlyB.data!.data.map((batch) => batch.id), [b.batchId]);
  });

  test('the admin route takes only the admin key, and the account route no admin key', async () => {
    for (const key of [a.first, b.first, 'sk-gw-wrong']) {
      const { response, data } = await clientFor(key).GET('/admin/v1/batches');
      assert.equal(response.status, 401);
      assert.equal(data, undefined);
    }
    const { response } = await clientFor(gateway.adminKey).GET('/v1/account/batches');
    assert.equal(response.status, 401);
  });
});
