// Batches forwarded to the upstream's own batch API (issue 37, point 4: `batch: upstream`), on SQLite and
// PostgreSQL, through the official SDKs (openai `files`/`batches`, @anthropic-ai/sdk `messages.batches`) against
// a fake upstream that follows OpenAI's and Anthropic's batch references (helpers/fake-batch-upstream.ts). A
// forwarded batch completes with each line's answer under its custom_id and one ledger row per line priced at
// the batch multiplier; no upstream batch or file ID, nor the upstream's key, reaches the client; a cancel is
// forwarded; a restart mid-batch polls the same upstream batch (no second create); a mixed batch runs one
// model upstream and the other in the gateway.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { components } from '../generated/api.js';
import { configSchema, type GatewayConfig } from '../server/config/config-schema.js';
import { keyOfNewAccount } from './helpers/admin-api.js';
import { startFakeBatchUpstream, type FakeBatchUpstream } from './helpers/fake-batch-upstream.js';
import { ask, batchClient, ended, resultsOf } from './helpers/message-batches.js';
import { chatLine, fileLines, openAIBatchClient, settled, uploadBatchInput } from './helpers/openai-batches.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { gatewayDatabases } from './helpers/test-databases.js';

type UsageRecord = components['schemas']['UsageRecord'];

const openAIKey = 'sk-upstream-openai-secret-123';
const anthropicKey = 'sk-ant-upstream-secret-456';
const pricing = { input_per_mtok: 2, output_per_mtok: 10, batch_multiplier: 0.5 };
/** 100 input and 40 output tokens (the fake's usage) at half price: (100 × 2 + 40 × 10) / 1e6 × 0.5. */
const lineCost = ((100 * 2 + 40 * 10) / 1e6) * 0.5;

function upstreamConfig(fake: FakeBatchUpstream): GatewayConfig {
  return configSchema.parse({
    providers: [
      { id: 'builtin', type: 'builtin', chunk_delay_ms: 0 },
      { id: 'oai', type: 'openai', base_url: `${fake.origin}/v1`, api_key: openAIKey },
      { id: 'ant', type: 'anthropic', base_url: fake.origin, api_key: anthropicKey },
    ],
    models: [
      { id: 'builtin/echo', provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming', 'tools', 'json_schema'] },
      { id: 'up/gpt', provider: 'oai', upstream_model: 'gpt-4o-mini-2024', batch: 'upstream', pricing },
      { id: 'up/claude', provider: 'ant', upstream_model: 'claude-haiku-x', batch: 'upstream', pricing },
      // The fake answers every request for `refuse-me` with an error.
      { id: 'up/refused', provider: 'ant', upstream_model: 'refuse-me', batch: 'upstream', pricing },
    ],
    batches: { poll_interval_ms: 30, lease_seconds: 2, upstream_poll_interval_ms: 30 },
  });
}

async function usageRows(gateway: TestGateway, key: string): Promise<UsageRecord[]> {
  const response = await fetch(`${gateway.origin}/v1/usage/records?limit=1000`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { data: UsageRecord[] }).data;
}

/** No upstream ID nor upstream secret in what the client read. */
function assertNoUpstreamTrace(fake: FakeBatchUpstream, seen: unknown): void {
  const text = JSON.stringify(seen);
  for (const id of fake.ids) assert.ok(!text.includes(id), `upstream ID ${id} reached the client`);
  for (const secret of [openAIKey, anthropicKey]) assert.ok(!text.includes(secret), 'an upstream key reached the client');
}

for (const [name, database] of gatewayDatabases) {
  describe(`Batches forwarded upstream on ${name}`, () => {
    let gateway: TestGateway;
    let fake: FakeBatchUpstream;
    let cleanup: () => Promise<void>;
    before(async () => {
      fake = await startFakeBatchUpstream();
      const store = await database();
      cleanup = store.cleanup;
      gateway = await startGateway({ config: upstreamConfig(fake), databaseUrl: store.url });
    });
    after(async () => {
      await gateway.close();
      await fake.close();
      await cleanup();
    });

    test('an OpenAI batch of a batch: upstream model goes upstream whole and completes with each line, priced at the batch multiplier', async () => {
      const key = await keyOfNewAccount(gateway, {});
      const client = openAIBatchClient(gateway, key);
      const creates = fake.calls.filter((call) => call === 'POST /v1/batches').length;
      const inputFileId = await uploadBatchInput(client, [chatLine('a', 'up/gpt'), chatLine('b', 'up/gpt'), chatLine('c', 'up/gpt')]);
      const created = await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' });
      const batch = await settled(client, created.id);
      assert.equal(batch.status, 'completed');
      assert.deepEqual(batch.request_counts, { total: 3, completed: 3, failed: 0 });
      assert.equal(fake.calls.filter((call) => call === 'POST /v1/batches').length, creates + 1, 'one upstream batch for the three lines');
      assert.ok(fake.credentials.has(`Bearer ${openAIKey}`), "the deployment's key went upstream");

      const output = await fileLines(client, batch.output_file_id);
      assert.deepEqual([...output.keys()].sort(), ['a', 'b', 'c']);
      for (const [id, line] of output) {
        assert.equal(line.response?.status_code, 200);
        assert.equal(line.response?.body.choices[0].message.content, `Batched: Hello ${id}`);
        assert.equal(line.response?.body.model, 'up/gpt', 'the model as the client named it');
        assert.match(String(line.response?.request_id), /^req_/);
      }
      const rows = (await usageRows(gateway, key)).filter((row) => row.batch_id === created.id);
      assert.equal(rows.length, 3);
      for (const row of rows) {
        assert.equal(row.model, 'up/gpt');
        assert.equal(row.endpoint, 'POST /v1/chat/completions');
        assert.deepEqual([row.input_tokens, row.output_tokens, row.status, row.batch], [100, 40, 200, true]);
        assert.ok(Math.abs(row.cost_usd - lineCost) < 1e-12, `cost ${row.cost_usd}`);
      }
      // Polling bills nothing.
      for (let poll = 0; poll < 3; poll += 1) await client.batches.retrieve(created.id);
      await sleep(300);
      assert.equal((await usageRows(gateway, key)).filter((row) => row.batch_id === created.id).length, 3);
      assertNoUpstreamTrace(fake, [created, batch, await client.batches.retrieve(created.id), await client.batches.list(), [...output.values()], await client.files.list()]);
    });

    test('an Anthropic batch goes to the Anthropic upstream: results per custom_id, errored lines as the upstream answered, rows at the batch price', async () => {
      const key = await keyOfNewAccount(gateway, {});
      const client = batchClient(gateway, key);
      const created = await client.messages.batches.create({
        requests: [{ custom_id: 'x', params: ask('Hi x', 'up/claude') }, { custom_id: 'y', params: ask('Hi y', 'up/claude') }, { custom_id: 'bad', params: ask('Hi', 'up/refused') }],
      });
      const batch = await ended(client, created.id);
      assert.deepEqual(batch.request_counts, { processing: 0, succeeded: 2, errored: 1, canceled: 0, expired: 0 });
      const results = await resultsOf(client, created.id);
      const bad = results.get('bad');
      assert.equal(bad?.type, 'errored');
      if (bad?.type === 'errored') assert.deepEqual(bad.error, { type: 'error', error: { type: 'invalid_request_error', message: 'model: refuse-me is not a model' } });
      for (const id of ['x', 'y']) {
        const result = results.get(id);
        assert.equal(result?.type, 'succeeded');
        if (result?.type === 'succeeded') {
          assert.deepEqual(result.message.content, [{ type: 'text', text: `Batched: Hi ${id}` }]);
          assert.equal(result.message.model, 'up/claude');
        }
      }
      assert.ok(fake.credentials.has(anthropicKey));
      assert.ok(!fake.calls.some((call) => call.includes('results.invalid')));
      const all = (await usageRows(gateway, key)).filter((row) => row.batch_id === created.id);
      const refused = all.filter((row) => row.model === 'up/refused');
      assert.deepEqual(refused.map((row) => [row.status, row.cost_usd]), [[400, 0]]);
      const rows = all.filter((row) => row.model === 'up/claude');
      assert.equal(rows.length, 2);
      assert.ok(rows.every((row) => row.model === 'up/claude' && row.batch && row.service_tier === 'batch' && Math.abs(row.cost_usd - lineCost) < 1e-12), JSON.stringify(rows));
      assertNoUpstreamTrace(fake, [created, batch, await client.messages.batches.list(), [...results.values()]]);
    });

    test('a mixed batch: the upstream model goes upstream, the other runs in the gateway', async () => {
      const key = await keyOfNewAccount(gateway, {});
      const client = openAIBatchClient(gateway, key);
      const creates = fake.calls.filter((call) => call === 'POST /v1/batches').length;
      const inputFileId = await uploadBatchInput(client, [chatLine('up-1', 'up/gpt'), chatLine('gw-1', 'builtin/echo'), chatLine('up-2', 'up/gpt')]);
      const batch = await settled(client, (await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' })).id);
      assert.equal(batch.status, 'completed');
      const output = await fileLines(client, batch.output_file_id);
      assert.equal(output.get('up-1')?.response?.body.choices[0].message.content, 'Batched: Hello up-1');
      assert.equal(output.get('up-2')?.response?.body.choices[0].message.content, 'Batched: Hello up-2');
      assert.match(output.get('gw-1')?.response?.body.choices[0].message.content, /Hello gw-1/);
      assert.doesNotMatch(output.get('gw-1')?.response?.body.choices[0].message.content, /Batched/);
      assert.equal(fake.calls.filter((call) => call === 'POST /v1/batches').length, creates + 1);
      const rows = (await usageRows(gateway, key)).filter((row) => row.batch_id === batch.id);
      assert.deepEqual(rows.map((row) => row.model).sort(), ['builtin/echo', 'up/gpt', 'up/gpt']);
    });

    test('a line the key may not send is not forwarded: it runs in the gateway and gets its 403 there', async () => {
      const key = await keyOfNewAccount(gateway, { permissions: { models: ['builtin/echo'] } });
      const client = openAIBatchClient(gateway, key);
      const creates = fake.calls.filter((call) => call === 'POST /v1/batches').length;
      const inputFileId = await uploadBatchInput(client, [chatLine('forbidden', 'up/gpt')]);
      const batch = await settled(client, (await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' })).id);
      const errors = await fileLines(client, batch.error_file_id);
      assert.equal(errors.get('forbidden')?.response?.status_code, 403);
      assert.equal(fake.calls.filter((call) => call === 'POST /v1/batches').length, creates);
    });

    test('cancelling a forwarded OpenAI batch cancels it upstream: cancelled, its lines in the error file as batch_cancelled', async () => {
      fake.hold = true;
      try {
        const client = openAIBatchClient(gateway, await keyOfNewAccount(gateway, {}));
        const cancels = fake.calls.filter((call) => /^POST \/v1\/batches\/[^/]+\/cancel$/.test(call)).length;
        const inputFileId = await uploadBatchInput(client, [chatLine('c1', 'up/gpt'), chatLine('c2', 'up/gpt')]);
        const created = await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' });
        const polled = () => fake.calls.filter((call) => /^GET \/v1\/batches\/.+/.test(call)).length;
        const before = polled();
        for (let tries = 0; polled() <= before; tries += 1) {
          assert.ok(tries < 200, 'the upstream batch is polled');
          await sleep(20);
        }
        assert.equal((await client.batches.cancel(created.id)).status, 'cancelling');
        const batch = await settled(client, created.id);
        assert.equal(batch.status, 'cancelled');
        assert.equal(fake.calls.filter((call) => /^POST \/v1\/batches\/[^/]+\/cancel$/.test(call)).length, cancels + 1);
        const errors = await fileLines(client, batch.error_file_id);
        assert.deepEqual([...errors.values()].map((line) => line.error?.code), ['batch_cancelled', 'batch_cancelled']);
        assertNoUpstreamTrace(fake, [batch, [...errors.values()]]);
      } finally {
        fake.hold = false;
      }
    });

    test('cancelling a forwarded batch cancels it upstream', async () => {
      fake.hold = true;
      try {
        const client = batchClient(gateway, await keyOfNewAccount(gateway, {}));
        const created = await client.messages.batches.create({ requests: [{ custom_id: 'slow', params: ask('wait', 'up/claude') }] });
        // Wait until it is upstream, then cancel.
        for (let tries = 0; !fake.calls.includes('POST /v1/messages/batches') || (await client.messages.batches.retrieve(created.id)).processing_status !== 'in_progress'; tries += 1) {
          assert.ok(tries < 200);
          await sleep(20);
        }
        await sleep(100);
        const canceling = await client.messages.batches.cancel(created.id);
        assert.equal(canceling.processing_status, 'canceling');
        const batch = await ended(client, created.id);
        assert.deepEqual(batch.request_counts, { processing: 0, succeeded: 0, errored: 0, canceled: 1, expired: 0 });
        assert.ok(fake.calls.some((call) => /^POST \/v1\/messages\/batches\/[^/]+\/cancel$/.test(call)), fake.calls.join('\n'));
        assert.equal((await resultsOf(client, created.id)).get('slow')?.type, 'canceled');
      } finally {
        fake.hold = false;
      }
    });
  });
}

describe('Batches forwarded upstream across a restart', () => {
  test('a gateway restarted mid-batch resumes polling the same upstream batch, without a second create', async () => {
    const fake = await startFakeBatchUpstream();
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-upstream-batches-'));
    fake.hold = true;
    let gateway = await startGateway({ config: upstreamConfig(fake), dataDir });
    try {
      const key = await keyOfNewAccount(gateway, {});
      let client = openAIBatchClient(gateway, key);
      const inputFileId = await uploadBatchInput(client, [chatLine('r1', 'up/gpt'), chatLine('r2', 'up/gpt')]);
      const created = await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' });
      for (let tries = 0; !fake.calls.some((call) => /^GET \/v1\/batches\/.+/.test(call)); tries += 1) {
        assert.ok(tries < 200, 'the upstream batch is polled');
        await sleep(20);
      }
      await gateway.close();
      const pollsBefore = fake.calls.filter((call) => /^GET \/v1\/batches\/.+/.test(call)).length;
      fake.hold = false;
      gateway = await startGateway({ config: upstreamConfig(fake), dataDir });
      client = openAIBatchClient(gateway, key);
      const batch = await settled(client, created.id);
      assert.equal(batch.status, 'completed');
      assert.deepEqual([...(await fileLines(client, batch.output_file_id)).keys()].sort(), ['r1', 'r2']);
      assert.equal(fake.calls.filter((call) => call === 'POST /v1/batches').length, 1, 'one upstream create across the restart');
      assert.equal(fake.calls.filter((call) => call === 'POST /v1/files').length, 1, 'one upstream upload across the restart');
      assert.ok(fake.calls.filter((call) => /^GET \/v1\/batches\/.+/.test(call)).length > pollsBefore, 'the new instance polled');
    } finally {
      await gateway.close();
      await fake.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
