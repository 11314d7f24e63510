// A large batch forwarded to an upstream's batch API (`batch: upstream`) in bounded memory: the poller reads the
// lines from the store 250 at a time and writes OpenAI's input file, or Anthropic's create body, to a file
// under the data directory, sent from there streamed (server/batches/upstream/upstream-batch-poller.ts). Holding
// the batch whole cost several times its size (the lines, their parsed bodies, the JSONL text, its Blob). CI
// forwards 20,000 lines of 5 KB (100 MB) to each of the fake's APIs (helpers/fake-batch-upstream.ts, which
// keeps only a summary of each request) and measures the process's live memory meanwhile, sampled after a
// full collection (helpers/streamed-upload.ts); `FORWARD_LINES=50000` is OpenAI's largest batch.
// The lines are stored through the batch store as a large OpenAI batch's creation stores them (a piece at a
// time while `validating`): Anthropic's create takes its requests in one body, limited by GATEWAY_MAX_BODY_BYTES
// (1 MiB in tests), and the creation's own memory is batches-large-create.test.ts's to measure.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { BatchStore } from '../server/batches/batch-store.js';
import { openBatchStore } from '../server/batches/open-batch-store.js';
import { configSchema, type GatewayConfig } from '../server/config/config-schema.js';
import { openDatabase, type GatewayDb } from '../server/store/database.js';
import { startFakeBatchUpstream, type FakeBatchUpstream } from './helpers/fake-batch-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { peakGrowth } from './helpers/streamed-upload.js';
import { gatewayDatabases } from './helpers/test-databases.js';

const lineBytes = 5_000;
const requests = Number(process.env.FORWARD_LINES ?? 20_000);
/**
 * A tenth of the input (100 MB). Measured: 4.8 MiB, a page of 250 lines a few times over (19.5 MiB with pages of
 * 1,000); the poller that held the batch whole grew by several times the input.
 */
const allowedGrowth = 10 * 1024 * 1024;
/** Lines stored per statement, as a large batch's creation stores them. */
const piece = 1_000;

function upstreamConfig(fake: FakeBatchUpstream): GatewayConfig {
  return configSchema.parse({
    providers: [
      { id: 'oai', type: 'openai', base_url: `${fake.origin}/v1`, api_key: 'sk-upstream-openai' },
      { id: 'ant', type: 'anthropic', base_url: fake.origin, api_key: 'sk-ant-upstream' },
    ],
    models: [
      { id: 'up/gpt', provider: 'oai', upstream_model: 'gpt-up', batch: 'upstream' },
      { id: 'up/claude', provider: 'ant', upstream_model: 'claude-up', batch: 'upstream' },
    ],
    batches: { poll_interval_ms: 30, lease_seconds: 30, upstream_poll_interval_ms: 200 },
  });
}

const cases = [
  { protocol: 'openai', model: 'up/gpt', providerId: 'oai', upstreamModel: 'gpt-up', endpoint: '/v1/chat/completions', created: 'POST /v1/batches' },
  { protocol: 'anthropic', model: 'up/claude', providerId: 'ant', upstreamModel: 'claude-up', endpoint: '/v1/messages', created: 'POST /v1/messages/batches' },
] as const;

/** The line's body, `lineBytes` long: a chat or Messages request with one long user message. */
function lineBody(model: string, index: number): string {
  const head = JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: `Hello ${index} ` }] });
  return head.replace(`Hello ${index} `, `Hello ${index} ${'a'.repeat(lineBytes - Buffer.byteLength(head))}`);
}

for (const [name, database] of gatewayDatabases) {
  describe(`a batch of ${requests} lines forwarded upstream on ${name}`, () => {
    let gateway: TestGateway;
    let fake: FakeBatchUpstream;
    let db: GatewayDb;
    let store: BatchStore;
    let closeStore: () => Promise<void>;
    let cleanup: () => Promise<void>;
    before(async () => {
      fake = await startFakeBatchUpstream();
      // Nothing ends: what is measured is the forwarding, not the results.
      fake.hold = true;
      const schema = await database();
      cleanup = schema.cleanup;
      gateway = await startGateway({ config: upstreamConfig(fake), databaseUrl: schema.url });
      // The gateway's own store, through a connection of the test's (on SQLite the same file and write gate).
      db = await openDatabase({ dataDir: gateway.dataDir, databaseUrl: schema.url });
      ({ store, close: closeStore } = await openBatchStore(db));
    });
    after(async () => {
      await gateway.close();
      await closeStore();
      await db.destroy();
      await fake.close();
      await cleanup();
    });

    for (const each of cases) {
      test(`to ${each.protocol}: live memory grows by a page of lines, not by the batch`, { timeout: 120_000 }, async () => {
        const batchId = `batch_large_${each.protocol}_${Date.now()}`;
        const upstreamBatchId = `ubatch_large_${each.protocol}_${Date.now()}`;
        const now = Date.now();
        await store.createValidating({ id: batchId, accountId: 'acct_large', keyId: 'key_large', protocol: each.protocol, createdAt: now, expiresAt: now + 86_400_000 });
        for (let first = 0; first < requests; first += piece) {
          const lines = Array.from({ length: Math.min(piece, requests - first) }, (_, offset) => ({
            customId: `request-${first + offset}`,
            endpoint: each.endpoint,
            body: lineBody(each.model, first + offset),
            upstreamBatchId,
          }));
          const upstreamBatches = first === 0 ? [{ id: upstreamBatchId, model: each.model, providerId: each.providerId, upstreamModel: each.upstreamModel, endpoint: each.endpoint }] : [];
          await store.addLines(batchId, first, lines, upstreamBatches);
        }
        const creates = fake.calls.filter((call) => call === each.created).length;
        const received = fake.received.length;

        const start = performance.now();
        const { growth } = await peakGrowth(async () => {
          // From now on the poller may take it up: it goes upstream at its next round.
          await store.startValidated(batchId, requests);
          for (;;) {
            const row = await db.selectFrom('upstream_batches').select('upstream_id').where('id', '=', upstreamBatchId).executeTakeFirstOrThrow();
            if (row.upstream_id !== null) return;
            assert.ok(performance.now() - start < 100_000, `not created upstream yet; calls: ${fake.calls.slice(-5).join(', ')}`);
            await sleep(50);
          }
        });
        const seconds = (performance.now() - start) / 1000;

        const sent = fake.received.slice(received);
        console.log(
          `${name}, ${each.protocol}: ${requests} lines (${((sent[0]?.bytes ?? 0) / 1e6).toFixed(0)} MB sent) forwarded in ${seconds.toFixed(1)} s; live memory grew at most ${(growth / 1024 / 1024).toFixed(1)} MiB`,
        );
        assert.ok(growth < allowedGrowth, `live memory grew ${Math.round(growth / 1024 / 1024)} MiB forwarding ${(requests * lineBytes) / 1e6} MB of lines`);
        assert.equal(fake.calls.filter((call) => call === each.created).length, creates + 1, 'one upstream batch');
        assert.equal(sent.length, 1, 'one input file or create body');
        assert.equal(sent[0]!.requests, requests, 'every line went upstream');
        assert.ok(sent[0]!.bytes > requests * lineBytes, `${sent[0]!.bytes} bytes sent`);
        assert.deepEqual(await readdir(join(gateway.dataDir, 'upstream-batches')), [], 'the file written to send it is removed');
      });
    }
  });
}
