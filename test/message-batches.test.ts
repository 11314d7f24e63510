// Anthropic Message Batches run by the gateway (server/batches/), on SQLite and PostgreSQL, through the official
// SDK (@anthropic-ai/sdk messages.batches): create, retrieve, list, results, cancel, delete; bad lines errored
// one by one while the others succeed; account isolation; a line that meets its account's limits waits for
// room instead of failing; polling adds no ledger row, and each line is one row with the batch's ID.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { adminApi, keyOfNewAccount } from './helpers/admin-api.js';
import { ledgerRowsOfBatch, startGatewayOnFreshStore, usageRecordsOf } from './helpers/batch-gateway.js';
import { awayFromMinuteEdge } from './helpers/minute-window.js';
import { ask, batchClient as sdk, batchTestConfig, ended, resultsOf } from './helpers/message-batches.js';
import type { TestGateway } from './helpers/start-gateway.js';
import { gatewayDatabases } from './helpers/test-databases.js';

for (const [name, database] of gatewayDatabases) {
  describe(`Message Batches on ${name}`, () => {
    let gateway: TestGateway;
    before(async () => {
      gateway = await startGatewayOnFreshStore(database, batchTestConfig());
    });
    after(() => gateway.close());

    test('the SDK creates, polls, lists and reads a batch; bad lines error one by one; each line is one ledger row, polling none', async () => {
      // A key that may use the echo model only: a line naming another model is refused (403) as that request would be.
      const key = await keyOfNewAccount(gateway, { permissions: { models: ['builtin/echo'] } });
      const client = sdk(gateway, key);
      const created = await client.messages.batches.create({
        requests: [
          { custom_id: 'good-1', params: ask('first line') },
          { custom_id: 'good-2', params: ask('second line') },
          { custom_id: 'no-max-tokens', params: { model: 'builtin/echo', messages: [{ role: 'user', content: 'x' }] } as never },
          { custom_id: 'forbidden-model', params: ask('not mine', 'builtin/embed') },
          { custom_id: 'unknown-model', params: ask('nobody', 'no/such-model') },
        ],
      });
      assert.equal(created.type, 'message_batch');
      assert.match(created.id, /^msgbatch_/);
      assert.equal(created.results_url, null);
      assert.equal(new Date(created.expires_at).getTime() - new Date(created.created_at).getTime(), 24 * 3_600_000);
      const batch = await ended(client, created.id);
      assert.deepEqual(batch.request_counts, { processing: 0, succeeded: 2, errored: 3, canceled: 0, expired: 0 });
      assert.equal(batch.results_url, `${gateway.origin}/v1/messages/batches/${created.id}/results`);
      assert.ok(batch.ended_at);

      const results = await resultsOf(client, created.id);
      assert.equal(results.size, 5);
      for (const id of ['good-1', 'good-2']) {
        const result = results.get(id)!;
        assert.equal(result.type, 'succeeded', JSON.stringify(result));
        if (result.type === 'succeeded') {
          assert.equal(result.message.type, 'message');
          assert.equal(result.message.role, 'assistant');
          assert.ok(result.message.usage.input_tokens > 0);
        }
      }
      const errorType = (id: string) => {
        const result = results.get(id)!;
        assert.equal(result.type, 'errored', JSON.stringify(result));
        return result.type === 'errored' ? result.error.error.type : undefined;
      };
      assert.equal(errorType('no-max-tokens'), 'invalid_request_error');
      assert.equal(errorType('forbidden-model'), 'permission_error');
      assert.equal(errorType('unknown-model'), 'not_found_error');

      // One row per line, each with the batch's ID (a refused request has its row, as over HTTP).
      const rows = await ledgerRowsOfBatch(gateway, key, created.id);
      assert.equal(rows.length, 5);
      assert.deepEqual(rows.map((row) => row.status).sort(), [200, 200, 400, 403, 404]);
      assert.ok(rows.every((row) => row.endpoint === 'POST /v1/messages' && row.protocol === 'anthropic-messages'));

      // Listed, newest first; polling, listing and reading results again add no row.
      const page = await client.messages.batches.list({ limit: 10 });
      assert.deepEqual(page.data.map((each) => each.id), [created.id]);
      for (let poll = 0; poll < 5; poll += 1) {
        await client.messages.batches.retrieve(created.id);
        await resultsOf(client, created.id);
      }
      await sleep(1_200);
      assert.equal((await usageRecordsOf(gateway, key)).length, 5, 'polling is not metered');

      const deleted = await client.messages.batches.delete(created.id);
      assert.deepEqual(deleted, { id: created.id, type: 'message_batch_deleted' });
      await assert.rejects(client.messages.batches.retrieve(created.id), (error: unknown) => error instanceof Anthropic.NotFoundError);
    });

    test("another account's batch is not found; a batch running cannot be deleted; list pages by after_id and before_id", async () => {
      const mine = sdk(gateway, await keyOfNewAccount(gateway, {}));
      const theirs = sdk(gateway, await keyOfNewAccount(gateway, {}));
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) {
        ids.push((await mine.messages.batches.create({ requests: [{ custom_id: `only-${index}`, params: ask(`batch ${index}`) }] })).id);
      }
      const notFound = (error: unknown) => error instanceof Anthropic.NotFoundError;
      await assert.rejects(theirs.messages.batches.retrieve(ids[0]!), notFound);
      await assert.rejects(theirs.messages.batches.cancel(ids[0]!), notFound);
      await assert.rejects(theirs.messages.batches.delete(ids[0]!), notFound);
      await assert.rejects(theirs.messages.batches.results(ids[0]!), notFound);
      assert.deepEqual((await theirs.messages.batches.list()).data, []);

      const all: string[] = [];
      for await (const batch of mine.messages.batches.list({ limit: 2 })) all.push(batch.id);
      assert.deepEqual(all, [...ids].reverse());
      const older = await mine.messages.batches.list({ limit: 1, after_id: ids[2]! });
      assert.deepEqual(older.data.map((batch) => batch.id), [ids[1]]);
      assert.equal(older.has_more, true);
      const newer = await mine.messages.batches.list({ limit: 5, before_id: ids[0]! });
      assert.deepEqual(newer.data.map((batch) => batch.id), [ids[2], ids[1]]);
      for (const id of ids) await ended(mine, id);
    });

    test('the create request is checked: duplicate custom_id, stream: true, and a malformed request are 400s that make nothing', async () => {
      const client = sdk(gateway, await keyOfNewAccount(gateway, {}));
      const badRequest = (error: unknown) => error instanceof Anthropic.BadRequestError;
      await assert.rejects(client.messages.batches.create({ requests: [{ custom_id: 'a', params: ask('1') }, { custom_id: 'a', params: ask('2') }] }), badRequest);
      await assert.rejects(client.messages.batches.create({ requests: [{ custom_id: 'a', params: { ...ask('1'), stream: true } as never }] }), badRequest);
      await assert.rejects(client.messages.batches.create({ requests: [{ custom_id: 'has space', params: ask('1') }] }), badRequest);
      await assert.rejects(client.messages.batches.create({ requests: [] }), badRequest);
      assert.deepEqual((await client.messages.batches.list()).data, []);
    });
  });

  describe(`Message Batches on ${name}, lines that take a while`, () => {
    let gateway: TestGateway;
    before(async () => {
      // One line at a time, each some 0.3 s (the built-in model's chunks 30 ms apart).
      gateway = await startGatewayOnFreshStore(database, batchTestConfig({ lines_in_flight: 1 }, 30));
    });
    after(() => gateway.close());

    test('cancel: the line running finishes, the rest are canceled, and a batch is deleted only once it has ended', async () => {
      const key = await keyOfNewAccount(gateway, {});
      const client = sdk(gateway, key);
      const created = await client.messages.batches.create({ requests: Array.from({ length: 6 }, (_, index) => ({ custom_id: `line-${index}`, params: ask(`line number ${index} of the batch`) })) });
      await assert.rejects(client.messages.batches.delete(created.id), (error: unknown) => error instanceof Anthropic.BadRequestError);
      await sleep(100);
      const canceling = await client.messages.batches.cancel(created.id);
      assert.equal(canceling.processing_status, 'canceling');
      assert.ok(canceling.cancel_initiated_at);
      const batch = await ended(client, created.id);
      const counts = batch.request_counts;
      assert.equal(counts.succeeded + counts.canceled, 6);
      assert.ok(counts.canceled >= 4, JSON.stringify(counts));
      const results = await resultsOf(client, created.id);
      assert.equal([...results.values()].filter((result) => result.type === 'canceled').length, counts.canceled);
      const rows = await ledgerRowsOfBatch(gateway, key, created.id);
      assert.equal(rows.length, counts.succeeded, 'canceled lines are not billed');
      await client.messages.batches.delete(created.id);
    });

    test("the batch runs under its key: once it is revoked, the remaining lines error with the key's authentication error", async () => {
      const admin = adminApi(gateway);
      const account = await admin.createAccount({ name: 'revoked' });
      const { key, id: keyId } = await admin.createKey(account.id, { name: 'batch maker' });
      const client = sdk(gateway, key);
      const created = await client.messages.batches.create({ requests: Array.from({ length: 5 }, (_, index) => ({ custom_id: `line-${index}`, params: ask(`line number ${index} of the batch`) })) });
      await sleep(150);
      await admin.revokeKey(keyId);
      // The revoked key can no longer read its batch: the admin's view is the store's.
      await assert.rejects(client.messages.batches.retrieve(created.id), (error: unknown) => error instanceof Anthropic.AuthenticationError);
      const fresh = sdk(gateway, (await admin.createKey(account.id, { name: 'reader' })).key);
      const batch = await ended(fresh, created.id);
      assert.ok(batch.request_counts.errored >= 3, JSON.stringify(batch.request_counts));
      const results = await resultsOf(fresh, created.id);
      const errored = [...results.values()].filter((result) => result.type === 'errored');
      assert.ok(errored.every((result) => result.type === 'errored' && result.error.error.type === 'authentication_error'));
    });

    test('a line that meets its account\'s concurrency limit waits for room, and is neither an error nor a ledger row until it runs', async () => {
      const key = await keyOfNewAccount(gateway, { limits: { concurrent_requests: 1 } });
      const client = sdk(gateway, key);
      // Interactive traffic holds the one slot while the batch's line asks for it.
      const interactive = client.messages.create({ ...ask('an interactive request that takes a while to answer'), max_tokens: 64 });
      const created = await client.messages.batches.create({ requests: [0, 1, 2].map((index) => ({ custom_id: `line-${index}`, params: ask(`line ${index}`) })) });
      await interactive;
      const batch = await ended(client, created.id, 30_000);
      assert.deepEqual(batch.request_counts, { processing: 0, succeeded: 3, errored: 0, canceled: 0, expired: 0 });
      const rows = await ledgerRowsOfBatch(gateway, key, created.id);
      assert.deepEqual(rows.map((row) => row.status), [200, 200, 200]);
    });

    test('expiry: the lines not done when the batch expires are expired, the line running keeps its result', async () => {
      // A gateway of its own on the same kind of store, whose batches expire after about 1.5 s.
      const expiring = await startGatewayOnFreshStore(database, batchTestConfig({ lines_in_flight: 1, expires_after_hours: 1.5 / 3600 }, 30));
      try {
        const client = sdk(expiring, await keyOfNewAccount(expiring, {}));
        const created = await client.messages.batches.create({ requests: Array.from({ length: 12 }, (_, index) => ({ custom_id: `line-${index}`, params: ask(`line number ${index} of the batch`) })) });
        const batch = await ended(client, created.id);
        const counts = batch.request_counts;
        assert.ok(counts.succeeded >= 1 && counts.expired >= 1 && counts.succeeded + counts.expired === 12, JSON.stringify(counts));
        const results = await resultsOf(client, created.id);
        assert.equal([...results.values()].filter((result) => result.type === 'expired').length, counts.expired);
      } finally {
        await expiring.close();
      }
    });

    if (name === 'SQLite') {
      test('a line that meets requests_per_minute waits for the next minute instead of failing', { timeout: 120_000 }, async () => {
        await awayFromMinuteEdge();
        const key = await keyOfNewAccount(gateway, { limits: { requests_per_minute: 2 } });
        const client = sdk(gateway, key);
        const created = await client.messages.batches.create({ requests: [0, 1, 2].map((index) => ({ custom_id: `line-${index}`, params: ask(`line ${index}`) })) });
        const batch = await ended(client, created.id, 90_000);
        assert.deepEqual(batch.request_counts, { processing: 0, succeeded: 3, errored: 0, canceled: 0, expired: 0 });
        const rows = await ledgerRowsOfBatch(gateway, key, created.id);
        assert.equal(rows.length, 3);
        const minutes = new Set(rows.map((row) => Math.floor(row.created_at / 60_000)));
        assert.equal(minutes.size, 2, 'the third line ran in the next minute');
      });
    }
  });
}
