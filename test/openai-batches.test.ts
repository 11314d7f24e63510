// OpenAI's Batch API run by the gateway (issue 37, point 2), on SQLite and PostgreSQL, through the official
// `openai` SDK: files.create, batches.create/retrieve/list/cancel and files.content. The full life cycle to
// `completed` with the output file's lines matching each custom_id; bad lines (a model the key may not use,
// invalid params) in the error file while the others succeed; cancel; account isolation; embeddings and
// responses batches; one ledger row per line with the batch's ID and none for polling; bad input (a file of
// another purpose, another account's file, a line for another endpoint: the batch `failed`, as at OpenAI).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { keyOfNewAccount } from './helpers/admin-api.js';
import { ledgerRowsOfBatch, startGatewayOnFreshStore, usageRecordsOf } from './helpers/batch-gateway.js';
import { batchTestConfig } from './helpers/message-batches.js';
import { chatLine, fileLines, openAIBatchClient as sdk, requestLine, settled, uploadBatchInput } from './helpers/openai-batches.js';
import type { TestGateway } from './helpers/start-gateway.js';
import { gatewayDatabases } from './helpers/test-databases.js';

const notFound = (error: unknown) => error instanceof OpenAI.NotFoundError;
const badRequest = (error: unknown) => error instanceof OpenAI.BadRequestError;

for (const [name, database] of gatewayDatabases) {
  describe(`OpenAI Batches on ${name}`, () => {
    let gateway: TestGateway;
    before(async () => {
      gateway = await startGatewayOnFreshStore(database, batchTestConfig());
    });
    after(() => gateway.close());

    test('a chat batch runs to completed: output lines per custom_id, bad lines in the error file, one ledger row per line, none for polling', async () => {
      // A key that may use the echo model only: a line naming another model is refused (403) as that request would be.
      const key = await keyOfNewAccount(gateway, { permissions: { models: ['builtin/echo'] } });
      const client = sdk(gateway, key);
      const inputFileId = await uploadBatchInput(client, [
        chatLine('good-1'),
        chatLine('good-2'),
        chatLine('forbidden-model', 'builtin/embed'),
        chatLine('bad-params', 'builtin/echo', { temperature: 'hot' }),
        chatLine('unknown-model', 'no/such-model'),
      ]);
      const created = await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { job: 'nightly' } });
      assert.match(created.id, /^batch_/);
      assert.equal(created.object, 'batch');
      assert.equal(created.status, 'in_progress');
      assert.equal(created.input_file_id, inputFileId);
      assert.deepEqual(created.metadata, { job: 'nightly' });
      assert.equal(created.request_counts?.total, 5);
      assert.equal(created.expires_at! - created.created_at, 24 * 3600);

      const batch = await settled(client, created.id);
      assert.equal(batch.status, 'completed');
      assert.deepEqual(batch.request_counts, { total: 5, completed: 2, failed: 3 });
      assert.ok(batch.finalizing_at && batch.completed_at && batch.completed_at >= batch.finalizing_at);
      assert.equal(batch.cancelled_at, null);
      assert.ok(batch.usage && batch.usage.input_tokens > 0 && batch.usage.total_tokens >= batch.usage.input_tokens, JSON.stringify(batch.usage));

      const output = await fileLines(client, batch.output_file_id);
      assert.deepEqual([...output.keys()], ['good-1', 'good-2']);
      for (const [id, line] of output) {
        assert.equal(line.error, null);
        assert.equal(line.response?.status_code, 200);
        assert.ok(line.response?.request_id);
        assert.equal(line.response?.body.object, 'chat.completion');
        assert.match(line.response?.body.choices[0].message.content, new RegExp(`Hello ${id}`));
      }
      const errors = await fileLines(client, batch.error_file_id);
      assert.deepEqual([...errors.keys()], ['forbidden-model', 'bad-params', 'unknown-model']);
      const statusOf = (id: string) => errors.get(id)?.response?.status_code;
      assert.deepEqual([statusOf('forbidden-model'), statusOf('bad-params'), statusOf('unknown-model')], [403, 400, 404]);
      for (const line of errors.values()) {
        assert.equal(line.error, null);
        assert.equal(typeof line.response?.body.error.message, 'string');
      }
      const files = await client.files.list({ purpose: 'batch_output' });
      assert.deepEqual(new Set(files.data.map((file) => file.id)), new Set([batch.output_file_id, batch.error_file_id]));

      // One row per line with the batch's ID; polling, listing and reading the files add none.
      const rows = await ledgerRowsOfBatch(gateway, key, created.id);
      assert.deepEqual(rows.map((row) => row.status).sort(), [200, 200, 400, 403, 404]);
      assert.ok(rows.every((row) => row.endpoint === 'POST /v1/chat/completions'));
      for (let poll = 0; poll < 5; poll += 1) {
        await client.batches.retrieve(created.id);
        await client.batches.list();
        await fileLines(client, batch.output_file_id);
      }
      await sleep(1_200);
      assert.equal((await usageRecordsOf(gateway, key)).length, 5, 'polling is not metered');
      // The files were written once: retrieving again names the same files.
      const again = await client.batches.retrieve(created.id);
      assert.equal(again.output_file_id, batch.output_file_id);
      assert.equal(again.error_file_id, batch.error_file_id);
    });

    test('embeddings and responses batches', async () => {
      const client = sdk(gateway, await keyOfNewAccount(gateway, {}));
      const embeddingsFile = await uploadBatchInput(client, ['a', 'b'].map((id) => requestLine(id, '/v1/embeddings', { model: 'builtin/embed', input: `text ${id}` })));
      const embeddings = await settled(client, (await client.batches.create({ input_file_id: embeddingsFile, endpoint: '/v1/embeddings', completion_window: '24h' })).id);
      assert.equal(embeddings.status, 'completed');
      assert.deepEqual(embeddings.request_counts, { total: 2, completed: 2, failed: 0 });
      for (const line of (await fileLines(client, embeddings.output_file_id)).values()) {
        assert.equal(line.response?.body.object, 'list');
        assert.ok(line.response?.body.data[0].embedding.length > 0);
      }
      const responsesFile = await uploadBatchInput(client, ['x', 'y'].map((id) => requestLine(id, '/v1/responses', { model: 'builtin/echo', input: `Hello ${id}` })));
      const responses = await settled(client, (await client.batches.create({ input_file_id: responsesFile, endpoint: '/v1/responses', completion_window: '24h' })).id);
      assert.equal(responses.status, 'completed', JSON.stringify(responses));
      const lines = await fileLines(client, responses.output_file_id);
      assert.deepEqual([...lines.keys()], ['x', 'y']);
      for (const [id, line] of lines) {
        assert.equal(line.response?.body.object, 'response');
        assert.match(JSON.stringify(line.response?.body.output), new RegExp(`Hello ${id}`));
      }
      assert.equal(responses.error_file_id, null);
    });

    test("bad input: a line for another endpoint fails the batch (url_mismatch, naming the line); a file of another purpose is a 400; another account's batch and file are 404", async () => {
      const key = await keyOfNewAccount(gateway, {});
      const client = sdk(gateway, key);
      const mixed = await uploadBatchInput(client, [chatLine('chat'), requestLine('embed', '/v1/embeddings', { model: 'builtin/embed', input: 'x' })]);
      const failed = await client.batches.create({ input_file_id: mixed, endpoint: '/v1/chat/completions', completion_window: '24h' });
      assert.equal(failed.status, 'failed');
      assert.ok(failed.failed_at);
      assert.deepEqual(failed.errors?.data?.map((error) => [error.code, error.line, error.param]), [['url_mismatch', 2, 'url']]);
      assert.deepEqual(failed.request_counts, { total: 0, completed: 0, failed: 0 });
      assert.equal((await client.batches.retrieve(failed.id)).status, 'failed');

      const notBatch = await uploadBatchInput(client, [chatLine('one')], 'user_data');
      await assert.rejects(client.batches.create({ input_file_id: notBatch, endpoint: '/v1/chat/completions', completion_window: '24h' }), badRequest);
      await assert.rejects(client.batches.create({ input_file_id: 'file-nope', endpoint: '/v1/chat/completions', completion_window: '24h' }), notFound);
      await assert.rejects(client.batches.create({ input_file_id: mixed, endpoint: '/v1/completions' as never, completion_window: '24h' }), badRequest);
      await assert.rejects(client.batches.create({ input_file_id: mixed, endpoint: '/v1/chat/completions', completion_window: '48h' as never }), badRequest);

      const mine = await uploadBatchInput(client, [chatLine('mine')]);
      const batch = await client.batches.create({ input_file_id: mine, endpoint: '/v1/chat/completions', completion_window: '24h' });
      const stranger = sdk(gateway, await keyOfNewAccount(gateway, {}));
      await assert.rejects(stranger.batches.retrieve(batch.id), notFound);
      await assert.rejects(stranger.batches.cancel(batch.id), notFound);
      await assert.rejects(stranger.batches.create({ input_file_id: mine, endpoint: '/v1/chat/completions', completion_window: '24h' }), notFound);
      assert.deepEqual((await stranger.batches.list()).data, []);
      const done = await settled(client, batch.id);
      await assert.rejects(stranger.files.content(done.output_file_id!), notFound);
      // An Anthropic message batch's route does not show an OpenAI batch.
      const viaMessages = await fetch(`${gateway.origin}/v1/messages/batches/${batch.id}`, { headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' } });
      assert.equal(viaMessages.status, 404);
      // Listed newest first, paged by `after`.
      const all: string[] = [];
      for await (const each of client.batches.list({ limit: 1 })) all.push(each.id);
      assert.deepEqual(all, [batch.id, failed.id]);
    });
  });

  describe(`OpenAI Batches on ${name}, lines that take a while`, () => {
    let gateway: TestGateway;
    before(async () => {
      // One line at a time, each some 0.3 s (the built-in model's chunks 30 ms apart).
      gateway = await startGatewayOnFreshStore(database, batchTestConfig({ lines_in_flight: 1 }, 30));
    });
    after(() => gateway.close());

    test('cancel: cancelling, then cancelled with counts; answers so far in the output file, the rest batch_cancelled in the error file', async () => {
      const key = await keyOfNewAccount(gateway, {});
      const client = sdk(gateway, key);
      const input = await uploadBatchInput(client, Array.from({ length: 6 }, (_, index) => chatLine(`line-${index}`, 'builtin/echo', { messages: [{ role: 'user', content: `line number ${index} of the batch` }] })));
      const created = await client.batches.create({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h' });
      await sleep(100);
      const cancelling = await client.batches.cancel(created.id);
      assert.equal(cancelling.status, 'cancelling');
      assert.ok(cancelling.cancelling_at);
      const batch = await settled(client, created.id);
      assert.equal(batch.status, 'cancelled');
      assert.ok(batch.cancelled_at);
      const counts = batch.request_counts!;
      assert.equal(counts.total, 6);
      assert.equal(counts.completed + counts.failed, 6);
      assert.ok(counts.failed >= 4, JSON.stringify(counts));
      const output = await fileLines(client, batch.output_file_id);
      const errors = await fileLines(client, batch.error_file_id);
      assert.equal(output.size, counts.completed);
      assert.equal(errors.size, counts.failed);
      for (const line of errors.values()) {
        assert.equal(line.response, null);
        assert.equal(line.error?.code, 'batch_cancelled');
      }
      const rows = await ledgerRowsOfBatch(gateway, key, created.id);
      assert.equal(rows.length, counts.completed, 'cancelled lines are not billed');
      // Cancelling an ended batch changes nothing.
      assert.equal((await client.batches.cancel(created.id)).status, 'cancelled');
    });

    test('expiry: the lines not run by expires_at are batch_expired in the error file, and the batch is expired', async () => {
      // A gateway of its own on the same kind of store, whose batches expire after about 1.5 s.
      const expiring = await startGatewayOnFreshStore(database, batchTestConfig({ lines_in_flight: 1, expires_after_hours: 1.5 / 3600 }, 30));
      try {
        const client = sdk(expiring, await keyOfNewAccount(expiring, {}));
        const input = await uploadBatchInput(client, Array.from({ length: 12 }, (_, index) => chatLine(`line-${index}`, 'builtin/echo', { messages: [{ role: 'user', content: `line number ${index} of the batch` }] })));
        const batch = await settled(client, (await client.batches.create({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h' })).id);
        assert.equal(batch.status, 'expired');
        assert.ok(batch.expired_at);
        const counts = batch.request_counts!;
        assert.ok(counts.completed >= 1 && counts.failed >= 1 && counts.completed + counts.failed === 12, JSON.stringify(counts));
        const errors = await fileLines(client, batch.error_file_id);
        assert.equal(errors.size, counts.failed);
        assert.ok([...errors.values()].every((line) => line.response === null && line.error?.code === 'batch_expired'));
        assert.equal((await fileLines(client, batch.output_file_id)).size, counts.completed);
      } finally {
        await expiring.close();
      }
    });
  });
}
