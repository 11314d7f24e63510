// Message Batches across gateway processes: a gateway stopped mid-batch (SIGTERM, and kill -9) and started again
// on the same store finishes the batch with every line's result exactly once; two gateways on one PostgreSQL
// share one batch's lines, and when one is killed the other takes its lines over within the lease. The upstream
// counts the calls it gets and the ledger the rows: no line is lost, none has two results or two rows, and only
// a line running at a kill -9 reaches the upstream twice.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type Anthropic from '@anthropic-ai/sdk';
import type { components } from '../generated/api.js';
import { adminApi } from './helpers/admin-api.js';
import { batchClient, ended, resultsOf } from './helpers/message-batches.js';
import { spawnGateway, type GatewayProcess } from './helpers/spawn-gateway.js';
import { postgresSchemaUrl } from './helpers/test-databases.js';

type UsageRecord = components['schemas']['UsageRecord'];

const lines = 24;
const lineMs = 250;
const leaseSeconds = 2;

/**
 * A non-streaming Anthropic Messages upstream answering after `lineMs`, in the shape of Anthropic's API
 * reference (https://docs.anthropic.com/en/api/messages): a `message` with one text block and its usage. It
 * counts the calls per line, told by the line's prompt.
 */
async function startCountingUpstream(): Promise<{ origin: string; calls: Map<string, number>; close(): Promise<void> }> {
  const calls = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const prompt = (JSON.parse(body) as { messages: Array<{ content: string }> }).messages[0]!.content;
      calls.set(prompt, (calls.get(prompt) ?? 0) + 1);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({
          id: `msg_${Math.random().toString(16).slice(2)}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-upstream',
          content: [{ type: 'text', text: `answer to ${prompt}` }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 3 },
        }));
      }, lineMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const adminKey = 'admin-batch-restart-0123456789';

async function gatewayEnv(upstreamOrigin: string, store: { databaseUrl?: string; dataDir?: string }): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'batch-restart-'));
  const config = {
    providers: [{ id: 'fake', type: 'anthropic', base_url: upstreamOrigin, api_key: 'sk-upstream-batch-0123456789' }],
    models: [{ id: 'claude-batch', provider: 'fake', upstream_model: 'claude-upstream', capabilities: ['chat'] }],
    batches: { lines_in_flight: 4, poll_interval_ms: 100, lease_seconds: leaseSeconds },
  };
  await writeFile(join(dir, 'gateway.json'), JSON.stringify(config));
  return {
    GATEWAY_CONFIG: join(dir, 'gateway.json'),
    GATEWAY_ADMIN_KEY: adminKey,
    ...(store.databaseUrl && { GATEWAY_DATABASE_URL: store.databaseUrl }),
    ...(store.dataDir && { GATEWAY_DATA_DIR: store.dataDir }),
  };
}

async function newKey(gateway: GatewayProcess): Promise<string> {
  const admin = adminApi({ origin: gateway.origin, adminKey });
  const account = await admin.createAccount({ name: 'batches' });
  return (await admin.createKey(account.id, { name: 'batch maker' })).key;
}

async function createBatch(client: Anthropic): Promise<string> {
  const requests = Array.from({ length: lines }, (_, index) => ({
    custom_id: `line-${index}`,
    params: { model: 'claude-batch', max_tokens: 16, messages: [{ role: 'user' as const, content: `line ${index}` }] },
  }));
  return (await client.messages.batches.create({ requests })).id;
}

/** Waits until at least `count` lines have a result. */
async function succeededAtLeast(client: Anthropic, id: string, count: number): Promise<void> {
  for (;;) {
    const batch = await client.messages.batches.retrieve(id);
    if (batch.request_counts.succeeded >= count) return;
    await sleep(25);
  }
}

/** Every line succeeded exactly once, with its own answer; one ledger row per line. */
async function assertEveryLineOnce(client: Anthropic, origin: string, key: string, id: string): Promise<void> {
  const batch = await ended(client, id, 60_000);
  assert.deepEqual(batch.request_counts, { processing: 0, succeeded: lines, errored: 0, canceled: 0, expired: 0 });
  const results = await resultsOf(client, id);
  assert.equal(results.size, lines);
  for (let index = 0; index < lines; index += 1) {
    const result = results.get(`line-${index}`)!;
    assert.equal(result.type, 'succeeded');
    if (result.type === 'succeeded') assert.deepEqual(result.message.content, [{ type: 'text', text: `answer to line ${index}` }]);
  }
  const response = await fetch(`${origin}/v1/usage/records?limit=1000`, { headers: { authorization: `Bearer ${key}` } });
  const rows = ((await response.json()) as { data: UsageRecord[] }).data.filter((row) => row.batch_id === id);
  assert.equal(rows.length, lines, 'one ledger row per line');
  assert.equal(new Set(rows.map((row) => row.request_id)).size, lines);
}

function upstreamCalls(calls: Map<string, number>): { total: number; twice: number } {
  const counts = Array.from({ length: lines }, (_, index) => calls.get(`line ${index}`) ?? 0);
  assert.ok(counts.every((count) => count >= 1), `every line reached the upstream: ${counts.join(',')}`);
  return { total: counts.reduce((sum, count) => sum + count, 0), twice: counts.filter((count) => count > 1).length };
}

describe('Message Batches across gateway processes', () => {
  let upstream: Awaited<ReturnType<typeof startCountingUpstream>>;
  before(async () => (upstream = await startCountingUpstream()));
  after(() => upstream.close());

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    test(`SQLite: ${signal} mid-batch, then a new process on the same file finishes it, every line once`, async () => {
      upstream.calls.clear();
      const dataDir = await mkdtemp(join(tmpdir(), 'batch-store-'));
      const env = await gatewayEnv(upstream.origin, { dataDir });
      const first = await spawnGateway(env);
      const key = await newKey(first);
      const id = await createBatch(batchClient(first, key));
      await succeededAtLeast(batchClient(first, key), id, 6);
      first.child.kill(signal);
      assert.equal(await first.exited, signal === 'SIGTERM' ? 0 : null);
      const second = await spawnGateway(env);
      try {
        await assertEveryLineOnce(batchClient(second, key), second.origin, key, id);
        const { total, twice } = upstreamCalls(upstream.calls);
        // SIGTERM: the lines running finish before the process exits, so none runs twice. kill -9: only the
        // lines running at the kill (at most lines_in_flight) may reach the upstream again.
        if (signal === 'SIGTERM') assert.equal(total, lines);
        else assert.ok(twice <= 4 && total === lines + twice, `upstream calls ${total}, lines run twice ${twice}`);
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    });
  }

  test('PostgreSQL: two processes share one batch; one is killed (kill -9) and the other takes its lines over within the lease', async () => {
    upstream.calls.clear();
    const database = await postgresSchemaUrl();
    const env = await gatewayEnv(upstream.origin, { databaseUrl: database.url });
    const [one, two] = await Promise.all([spawnGateway(env), spawnGateway(env)]);
    try {
      const key = await newKey(one);
      const id = await createBatch(batchClient(one, key));
      await succeededAtLeast(batchClient(two, key), id, 8);
      const servedBy = (gateway: GatewayProcess) => gateway.output().split('\n').filter((line) => line.includes('"operation":"createMessage"')).length;
      assert.ok(servedBy(one) > 0 && servedBy(two) > 0, `both instances ran lines: ${servedBy(one)} and ${servedBy(two)}`);
      one.child.kill('SIGKILL');
      await one.exited;
      const killedAt = Date.now();
      await assertEveryLineOnce(batchClient(two, key), two.origin, key, id);
      assert.ok(Date.now() - killedAt < 60_000, 'taken over within a minute');
      const { total, twice } = upstreamCalls(upstream.calls);
      assert.ok(twice <= 4 && total === lines + twice, `upstream calls ${total}, lines run twice ${twice}`);
    } finally {
      for (const gateway of [one, two]) if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGTERM');
      await Promise.all([one.exited, two.exited]);
      await database.cleanup();
    }
  });
});
