// The crash between an upstream create and its record (upstream-batch-poller.ts): the store says `creating`
// with no upstream ID. On OpenAI the next tender finds the batch by the gateway's tag in its metadata and adopts
// it (no second create); on Anthropic, whose batches keep no metadata, the lines are errored rather than sent
// twice. Over a real store (SQLite) and the fake batch upstream (test/helpers/fake-batch-upstream.ts).
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { startFakeBatchUpstream, type FakeBatchUpstream } from '../../../test/helpers/fake-batch-upstream.js';
import { testDatabases, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { configSchema } from '../../config/config-schema.js';
import { ModelRegistry } from '../../core/model-registry.js';
import { migrateToLatest } from '../../store/migrations.js';
import type { BatchStore } from '../batch-store.js';
import { openBatchStore } from '../open-batch-store.js';
import { UpstreamBatchPoller } from './upstream-batch-poller.js';
import type { UpstreamBatchStore } from './upstream-batch-store.js';

const [, openSqlite] = testDatabases.find(([name]) => name === 'SQLite')!;
let database: TestDatabase;
let store: BatchStore;
let upstream: UpstreamBatchStore;
let closeStore: () => Promise<void>;
let fake: FakeBatchUpstream;
let registry: ModelRegistry;
let scratchDirectory: string;

before(async () => {
  fake = await startFakeBatchUpstream();
  database = await openSqlite();
  scratchDirectory = await mkdtemp(join(tmpdir(), 'upstream-batch-scratch-'));
  await migrateToLatest(database.db);
  ({ store, upstream, close: closeStore } = await openBatchStore(database.db));
  registry = new ModelRegistry(
    configSchema.parse({
      providers: [
        { id: 'oai', type: 'openai', base_url: `${fake.origin}/v1`, api_key: 'k1' },
        { id: 'ant', type: 'anthropic', base_url: fake.origin, api_key: 'k2' },
      ],
      models: [
        { id: 'gpt', provider: 'oai', upstream_model: 'gpt-up', batch: 'upstream' },
        { id: 'claude', provider: 'ant', upstream_model: 'claude-up', batch: 'upstream' },
      ],
    }),
  );
});
after(async () => {
  await registry.close();
  await closeStore();
  await database.db.destroy();
  await database.cleanup();
  await fake.close();
  await rm(scratchDirectory, { recursive: true, force: true });
});

/** A batch of two lines forwarded to one upstream batch, whose create was sent but never recorded (`creating`, no ID). */
async function crashedMidCreate(id: string, protocol: 'openai' | 'anthropic', model: string, providerId: string, endpoint: string) {
  const now = Date.now();
  const body = (text: string) => JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: text }] });
  await store.create({
    id,
    accountId: 'acct_a',
    keyId: 'key_a',
    protocol,
    lines: ['l1', 'l2'].map((customId) => ({ customId, endpoint, body: body(customId), upstreamBatchId: `ubatch_${id}` })),
    upstreamBatches: [{ id: `ubatch_${id}`, model, providerId, upstreamModel: `${model}-up`, endpoint }],
    createdAt: now,
    expiresAt: now + 86_400_000,
  });
  const [claimed] = await upstream.claimDue('inst_dead', now, now + 60_000, 10);
  assert.equal(claimed?.id, `ubatch_${id}`);
  await upstream.record(claimed.id, 'inst_dead', { upstreamStatus: 'creating' });
  return claimed;
}

/** Tends with a fresh instance until the batch has ended. */
async function tendUntilEnded(batchId: string): Promise<void> {
  const poller = new UpstreamBatchPoller({ batches: store, upstream, registry, logger: pino({ level: 'silent' }), instanceId: 'inst_next', leaseMs: 60_000, pollIntervalMs: 10, wake: () => {}, scratchDirectory });
  // The dead instance's lease is long past for the one that takes over.
  const later = () => Date.now() + 120_000;
  for (let round = 0; round < 200; round += 1) {
    await poller.tend(later());
    await sleep(10);
    if ((await store.get(batchId, 'acct_a'))?.status === 'ended') break;
  }
  await poller.stop();
}

test('OpenAI: a batch created before the crash is found by its tag and adopted, never created twice', async () => {
  const claimed = await crashedMidCreate('batch_crash_openai', 'openai', 'gpt', 'oai', '/v1/chat/completions');
  // What the dead instance had sent before it stopped: the file and the batch, tagged with the gateway's ID.
  const api = registry.find('gpt')!.deployments[0]!.provider.batches!;
  const signal = new AbortController().signal;
  const page = [{ customId: 'l1', body: { model: 'gpt-up', messages: [{ role: 'user', content: 'l1' }] } }, { customId: 'l2', body: { model: 'gpt-up', messages: [{ role: 'user', content: 'l2' }] } }];
  const requests = { scratchDirectory, pages: async function* () { yield page; } };
  const inputFileId = await api.upload!(requests, '/v1/chat/completions', signal);
  await api.create({ requests, endpoint: '/v1/chat/completions', inputFileId, tag: claimed.id }, signal);
  assert.deepEqual(await readdir(scratchDirectory), [], 'the input file written to upload is removed');
  const creates = fake.calls.filter((call) => call === 'POST /v1/batches').length;

  await tendUntilEnded('batch_crash_openai');
  assert.equal(fake.calls.filter((call) => call === 'POST /v1/batches').length, creates, 'adopted, not created again');
  const results = await store.results('batch_crash_openai', 0, 10);
  assert.deepEqual(results.map((line) => [line.customId, line.outcome]), [['l1', 'succeeded'], ['l2', 'succeeded']]);
});

test('Anthropic: with no metadata to look by, the lines are errored, saying why, and nothing is sent again', async () => {
  await crashedMidCreate('msgbatch_crash', 'anthropic', 'claude', 'ant', '/v1/messages');
  const creates = fake.calls.filter((call) => call === 'POST /v1/messages/batches').length;
  await tendUntilEnded('msgbatch_crash');
  assert.equal(fake.calls.filter((call) => call === 'POST /v1/messages/batches').length, creates);
  const results = await store.results('msgbatch_crash', 0, 10);
  assert.deepEqual(results.map((line) => line.outcome), ['errored', 'errored']);
  assert.match(String(results[0]!.response), /cannot tell whether the upstream took it, so it is not sent again/);
});

test('lines an upstream batch never answered are expired an hour after the batch expired, and the upstream batch is not made', async () => {
  const past = Date.now() - 2 * 3_600_000;
  const body = JSON.stringify({ model: 'claude', max_tokens: 8, messages: [{ role: 'user', content: 'late' }] });
  await store.create({
    id: 'msgbatch_expired',
    accountId: 'acct_a',
    keyId: 'key_a',
    protocol: 'anthropic',
    lines: [{ customId: 'late', endpoint: '/v1/messages', body, upstreamBatchId: 'ubatch_expired' }],
    upstreamBatches: [{ id: 'ubatch_expired', model: 'claude', providerId: 'ant', upstreamModel: 'claude-up', endpoint: '/v1/messages' }],
    createdAt: past - 1_000,
    expiresAt: past,
  });
  const creates = fake.calls.filter((call) => call === 'POST /v1/messages/batches').length;
  await tendUntilEnded('msgbatch_expired');
  assert.deepEqual((await store.results('msgbatch_expired', 0, 10)).map((line) => line.outcome), ['expired']);
  assert.equal(fake.calls.filter((call) => call === 'POST /v1/messages/batches').length, creates);
});

test('OpenAI: an input file the upstream refuses is not uploaded again at every poll: the lines run in the gateway', async () => {
  const now = Date.now();
  const body = (text: string) => JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: text }] });
  await store.create({
    id: 'batch_upload_refused',
    accountId: 'acct_a',
    keyId: 'key_a',
    protocol: 'openai',
    lines: ['l1', 'l2'].map((customId) => ({ customId, endpoint: '/v1/chat/completions', body: body(customId), upstreamBatchId: 'ubatch_upload_refused' })),
    upstreamBatches: [{ id: 'ubatch_upload_refused', model: 'gpt', providerId: 'oai', upstreamModel: 'gpt-up', endpoint: '/v1/chat/completions' }],
    createdAt: now,
    expiresAt: now + 86_400_000,
  });
  fake.maxUploadBytes = 10;
  const uploads = () => fake.calls.filter((call) => call === 'POST /v1/files').length;
  const before = { uploads: uploads(), creates: fake.calls.filter((call) => call === 'POST /v1/batches').length };
  let handedBack = 0;
  const poller = new UpstreamBatchPoller({ batches: store, upstream, registry, logger: pino({ level: 'silent' }), instanceId: 'inst_next', leaseMs: 60_000, pollIntervalMs: 10, wake: () => (handedBack += 1), scratchDirectory });
  try {
    for (let round = 0; round < 5; round += 1) {
      await poller.tend(Date.now() + round * 1_000);
      await sleep(20);
    }
  } finally {
    await poller.stop();
    fake.maxUploadBytes = Infinity;
  }
  assert.equal(uploads() - before.uploads, 1, 'uploaded once, not at every poll');
  assert.equal(fake.calls.filter((call) => call === 'POST /v1/batches').length, before.creates, 'no batch made upstream');
  assert.equal(handedBack, 1, "the gateway's runner is woken for the lines");
  assert.deepEqual(await store.forwardedLineIds('batch_upload_refused', 'ubatch_upload_refused'), [], 'no line is left forwarded');
  assert.deepEqual(await readdir(scratchDirectory), [], 'the refused file is removed');
});

test("a process's first tend removes the scratch files a process killed mid-send left, and nothing else", async () => {
  const directory = await mkdtemp(join(tmpdir(), 'upstream-batch-leftovers-'));
  try {
    const names = { stale: `${'a'.repeat(24)}.tmp`, fresh: `${'b'.repeat(24)}.tmp`, other: 'notes.txt' };
    for (const name of Object.values(names)) await writeFile(join(directory, name), 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await utimes(join(directory, names.stale), twoDaysAgo, twoDaysAgo);
    await utimes(join(directory, names.other), twoDaysAgo, twoDaysAgo);
    const poller = new UpstreamBatchPoller({ batches: store, upstream, registry, logger: pino({ level: 'silent' }), instanceId: 'inst_sweep', leaseMs: 60_000, pollIntervalMs: 10, wake: () => {}, scratchDirectory: directory });
    await poller.tend(Date.now());
    await poller.stop();
    assert.deepEqual((await readdir(directory)).sort(), [names.fresh, names.other].sort());
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
