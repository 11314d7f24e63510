// Accounts, the usage ledger and limits, end to end: the admin API, one ledger row per request on every
// surface with costs from the configured prices, 429s in each protocol's shape, a tokens-per-minute limit
// under 100 concurrent requests, two gateway instances sharing PostgreSQL and Redis, and SIGTERM under load.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { connectTestRedis } from './helpers/limit-stores.js';
import { openDatabase } from '../server/store/database.js';
import { adminApi } from './helpers/admin-api.js';
import { awayFromMinuteEdge } from './helpers/minute-window.js';
import { runKeysCli, spawnGateway } from './helpers/spawn-gateway.js';
import { startSharedStoreGateways, type SharedStoreGateways } from './helpers/shared-store-gateways.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { postgresSchemaUrl, redisUrl } from './helpers/test-databases.js';

const prices = { input_per_mtok: 3, output_per_mtok: 15 };
const config = configSchema.parse({
  providers: [{ id: 'builtin', type: 'builtin' }],
  models: [
    { id: 'priced', provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming', 'tools', 'json_schema'], pricing: prices },
    { id: 'painter', provider: 'builtin', upstream_model: 'image', capabilities: ['image_generation'], pricing: { per_image: 0.04 } },
  ],
});

const openaiFor = (origin: string, apiKey: string) => new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 });
const chat = (client: OpenAI, content = 'hello there', max_tokens = 20) => client.chat.completions.create({ model: 'priced', messages: [{ role: 'user', content }], max_tokens });

/** Waits until `read` gives a value `done` accepts, or fails after `timeoutMs` with the last one. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await sleep(100);
    value = await read();
  }
  return value;
}


describe('accounts and keys through the admin API', () => {
  let gateway: TestGateway;
  before(async () => (gateway = await startGateway({ config })));
  after(() => gateway.close());

  test('create, read, update, list accounts; keys of an account; default account; refusals', async () => {
    const admin = adminApi(gateway);
    assert.equal((await admin.listAccounts()).data[0]?.id, 'acct_default');
    const account = await admin.createAccount({ name: 'team-a', permissions: { models: ['priced'] }, limits: { requests_per_minute: 100 } });
    assert.match(account.id, /^acct_[0-9a-f]{16}$/);
    assert.deepEqual([account.object, account.name, account.disabled_at], ['account', 'team-a', null]);
    const renamed = await admin.updateAccount(account.id, { name: 'team-b', limits: {} });
    assert.deepEqual([renamed.name, renamed.limits, renamed.permissions], ['team-b', {}, { models: ['priced'] }]);
    assert.deepEqual(await admin.getAccount(account.id), renamed);

    const created = await admin.createKey(account.id, { name: 'ci', permissions: { max_output_tokens: 100 } });
    assert.equal(created.account_id, account.id);
    assert.match(created.key, /^sk-gw-/);
    const listed = await admin.listKeys(account.id);
    assert.deepEqual(listed.data.map((key) => key.id), [created.id]);
    assert.ok(!JSON.stringify(listed).includes(created.key), 'no secret in lists');

    const headers = { authorization: `Bearer ${gateway.adminKey}`, 'content-type': 'application/json' };
    const plain = await fetch(`${gateway.origin}/admin/v1/keys`, { method: 'POST', headers, body: JSON.stringify({ name: 'no account' }) });
    assert.equal(((await plain.json()) as { account_id: string }).account_id, 'acct_default');
    const orphan = await fetch(`${gateway.origin}/admin/v1/keys`, { method: 'POST', headers, body: JSON.stringify({ name: 'x', account_id: 'acct_nope' }) });
    assert.equal(orphan.status, 404);
    const userKey = await fetch(`${gateway.origin}/admin/v1/accounts`, { headers: { authorization: `Bearer ${created.key}` } });
    assert.equal(userKey.status, 401, 'admin routes refuse user keys');
    const missing = await fetch(`${gateway.origin}/admin/v1/accounts/acct_nope`, { headers });
    assert.equal(missing.status, 404);
  });

  test('a disabled account gets 403, and works again once enabled', async () => {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'paused' });
    const client = openaiFor(gateway.origin, (await admin.createKey(account.id, { name: 'k' })).key);
    await chat(client);
    await admin.updateAccount(account.id, { disabled: true });
    const refused = await chat(client).catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.PermissionDeniedError, String(refused));
    assert.equal(refused.code, 'account_disabled');
    await admin.updateAccount(account.id, { disabled: false });
    await chat(client);
  });
});

describe('the usage ledger', () => {
  let gateway: TestGateway;
  before(async () => (gateway = await startGateway({ config })));
  after(() => gateway.close());

  test('one row per request on every surface, streamed or not, failed or not; tokens and cost as the clients were told', async () => {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'metered' });
    const { key, id: keyId } = await admin.createKey(account.id, { name: 'k' });
    const openai = openaiFor(gateway.origin, key);
    const told: Array<{ input: number; output: number }> = [];

    const completion = await chat(openai);
    told.push({ input: completion.usage!.prompt_tokens, output: completion.usage!.completion_tokens });
    const stream = await openai.chat.completions.create({ model: 'priced', messages: [{ role: 'user', content: 'stream me' }], stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) if (chunk.usage) told.push({ input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens });
    const response = await openai.responses.create({ model: 'priced', input: 'a response' });
    told.push({ input: response.usage!.input_tokens, output: response.usage!.output_tokens });
    const anthropic = new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.origin, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'priced', max_tokens: 50, messages: [{ role: 'user', content: 'a message' }] });
    told.push({ input: message.usage.input_tokens, output: message.usage.output_tokens });
    const google = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.origin } });
    const generated = await google.models.generateContent({ model: 'priced', contents: 'gemini text' });
    told.push({ input: generated.usageMetadata!.promptTokenCount!, output: generated.usageMetadata!.candidatesTokenCount! });
    await openai.images.generate({ model: 'painter', prompt: 'two suns', n: 2, size: '256x256' });
    await assert.rejects(openai.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }), OpenAI.NotFoundError);
    const requestsMade = 7;

    const byModel = await eventually(
      async () => (await fetch(`${gateway.origin}/v1/usage?group_by=model`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json())) as { data: Array<Record<string, number | string>> },
      (report) => report.data.reduce((sum, row) => sum + Number(row.requests), 0) >= requestsMade,
    );
    assert.equal(byModel.data.reduce((sum, row) => sum + Number(row.requests), 0), requestsMade, 'the row count equals the requests made');
    const priced = byModel.data.find((row) => row.model === 'priced')!;
    const input = told.reduce((sum, usage) => sum + usage.input, 0);
    const output = told.reduce((sum, usage) => sum + usage.output, 0);
    assert.deepEqual([priced.requests, priced.input_tokens, priced.output_tokens], [5, input, output]);
    assert.ok(Math.abs(Number(priced.cost_usd) - (input * prices.input_per_mtok + output * prices.output_per_mtok) / 1e6) < 1e-12);
    const painter = byModel.data.find((row) => row.model === 'painter')!;
    assert.deepEqual([painter.requests, painter.image_count], [1, 2]);
    assert.ok(Math.abs(Number(painter.cost_usd) - 0.08) < 1e-12);
    assert.equal(byModel.data.find((row) => row.model === 'no-such-model')?.requests, 1);

    const byDay = await admin.usage({ key_id: keyId, group_by: 'day' });
    assert.equal(byDay.data.length, 1);
    assert.equal(byDay.data[0]!.day, new Date().toISOString().slice(0, 10));
    assert.equal(byDay.data[0]!.requests, requestsMade);
    assert.equal((await admin.usage({ account_id: 'acct_default', model: 'painter' })).data.length, 0, 'another account sees none of it');
  });

  test('reports group by key on SQLite and PostgreSQL; records_since is where retention deletes rows, null without it', async () => {
    const postgres = await postgresSchemaUrl();
    const retaining = await startGateway({ config: { ...config, ledger: { ...config.ledger, retention_days: 7 } }, databaseUrl: postgres.url });
    try {
      for (const [each, recordsSince] of [[gateway, null], [retaining, Math.floor((Date.now() / 1000 - 7 * 86_400) / 3_600) * 3_600]] as const) {
        const admin = adminApi(each);
        const account = await admin.createAccount({ name: 'by key' });
        const keys = [await admin.createKey(account.id, { name: 'one' }), await admin.createKey(account.id, { name: 'two' })];
        await Promise.all([chat(openaiFor(each.origin, keys[0].key)), chat(openaiFor(each.origin, keys[0].key)), chat(openaiFor(each.origin, keys[1].key))]);
        const report = await eventually(
          () => admin.usage({ account_id: account.id, group_by: 'key' }),
          (answer) => answer.data.reduce((sum, row) => sum + row.requests, 0) >= 3,
        );
        const expected = [[keys[0].id, 2], [keys[1].id, 1]].sort(([a], [b]) => (a < b ? -1 : 1));
        assert.deepEqual(report.data.map((row) => [row.key_id, row.requests]), expected);
        assert.equal(report.group_by, 'key');
        // The horizon moves on with the clock: on an hour, at most one hour on from when the test began.
        if (recordsSince === null) assert.equal(report.records_since, null);
        else assert.ok(report.records_since! % 3_600 === 0 && report.records_since! - recordsSince <= 3_600, String(report.records_since));
        const own = (await fetch(`${each.origin}/v1/usage?group_by=key`, { headers: { authorization: `Bearer ${keys[1].key}` } }).then((r) => r.json())) as typeof report;
        assert.deepEqual(own.data.map((row) => [row.key_id, row.requests]), [[keys[1].id, 1]], 'an account key sees its own keys, not a sibling root');
      }
    } finally {
      await retaining.close();
      await postgres.cleanup();
    }
  });

  test('counting tokens is a ledger row with no tokens and no cost, and takes nothing from tokens_per_minute', async () => {
    await awayFromMinuteEdge();
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'counter', limits: { tokens_per_minute: 30 } });
    const { key } = await admin.createKey(account.id, { name: 'k' });
    const long = 'count every one of these words please '.repeat(20);
    const anthropic = new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.origin, maxRetries: 0 });
    // The version named: @google/genai 3 calls /v1 by default, 2 /v1beta, and the ledger names the path called.
    const google = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.origin, apiVersion: 'v1beta' } });
    for (let round = 0; round < 3; round++) {
      assert.ok((await anthropic.messages.countTokens({ model: 'priced', messages: [{ role: 'user', content: long }] })).input_tokens > 30);
      assert.ok(((await google.models.countTokens({ model: 'priced', contents: long })).totalTokens ?? 0) > 30);
    }
    await chat(openaiFor(gateway.origin, key), 'still within the minute', 5);

    const records = await eventually(
      async () => (await fetch(`${gateway.origin}/v1/usage/records`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json())) as { data: Array<Record<string, unknown>> },
      (page) => page.data.length >= 7,
    );
    const counts = records.data.filter((row) => String(row.endpoint).includes('ount'));
    assert.deepEqual(new Set(counts.map((row) => row.endpoint)), new Set(['POST /v1/messages/count_tokens', 'POST /v1beta/models/{model}:countTokens']));
    assert.equal(counts.length, 6);
    for (const row of counts) assert.deepEqual([row.status, row.model, row.input_tokens, row.output_tokens, row.cost_usd], [200, 'priced', 0, 0, 0]);
    const generated = records.data.find((row) => row.endpoint === 'POST /v1/chat/completions')!;
    assert.ok(Number(generated.cost_usd) > 0, 'a generation on the same key is still priced');
  });
});

describe('limits', () => {
  let gateway: TestGateway;
  before(async () => (gateway = await startGateway({ config })));
  after(() => gateway.close());

  test('over requests_per_minute: 429 with retry-after, in each protocol shape', async () => {
    await awayFromMinuteEdge();
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'slow' });
    const { key } = await admin.createKey(account.id, { name: 'k', limits: { requests_per_minute: 2 } });
    const openai = openaiFor(gateway.origin, key);
    await chat(openai);
    await chat(openai);
    const refused = await chat(openai).catch((error: unknown) => error);
    assert.ok(refused instanceof OpenAI.RateLimitError, String(refused));
    assert.ok(Number(refused.headers?.get('retry-after')) >= 1);
    assert.match(refused.message, /2 requests per minute/);

    const anthropic = await fetch(`${gateway.origin}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'priced', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    });
    assert.equal(anthropic.status, 429);
    assert.equal(((await anthropic.json()) as { error: { type: string } }).error.type, 'rate_limit_error');
    const gemini = await fetch(`${gateway.origin}/v1beta/models/priced:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    });
    assert.equal(gemini.status, 429);
    assert.equal(((await gemini.json()) as { error: { status: string } }).error.status, 'RESOURCE_EXHAUSTED');
  });

  test('100 concurrent requests never use more tokens in a minute than tokens_per_minute allows', async () => {
    await awayFromMinuteEdge();
    const limit = 1_000;
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'bursty', limits: { tokens_per_minute: limit } });
    const { key, id: keyId } = await admin.createKey(account.id, { name: 'k' });
    const openai = openaiFor(gateway.origin, key);
    const outcomes = await Promise.all(Array.from({ length: 100 }, () => chat(openai).then((completion) => completion.usage!.total_tokens, (error: unknown) => error)));
    const used = outcomes.filter((outcome): outcome is number => typeof outcome === 'number');
    const refused = outcomes.filter((outcome) => outcome instanceof OpenAI.RateLimitError);
    assert.equal(used.length + refused.length, 100, 'every request was admitted or refused with 429');
    assert.ok(refused.length > 0, 'the limit was reached');
    const total = used.reduce((sum, tokens) => sum + tokens, 0);
    assert.ok(total <= limit, `${total} tokens used against a limit of ${limit}`);
    assert.ok(total > limit / 2, `the limit is used, not just refused: ${total}`);
    const ledger = await eventually(() => admin.usage({ key_id: keyId, group_by: 'model' }), (report) => report.data[0]?.requests === 100);
    assert.equal(ledger.data[0]!.input_tokens + ledger.data[0]!.output_tokens, total, 'the ledger agrees');
  });
});

describe('two gateway instances sharing PostgreSQL and Redis', () => {
  let gateways: SharedStoreGateways;
  let first: TestGateway;
  let second: TestGateway;
  before(async () => {
    (await connectTestRedis(redisUrl)).disconnect(); // a clear failure when Redis is not running
    gateways = await startSharedStoreGateways({ config, redisUrl });
    ({ first, second } = gateways);
  });
  after(() => gateways?.close());

  test('enforce one requests_per_minute limit together, and write one ledger', async () => {
    await awayFromMinuteEdge();
    const admin = adminApi(first);
    const account = await admin.createAccount({ name: 'one set of counters', limits: { requests_per_minute: 10 } });
    const { key, id: keyId } = await admin.createKey(account.id, { name: 'k' });
    const clients = [openaiFor(first.origin, key), openaiFor(second.origin, key)];
    const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => chat(clients[i % 2]!).then(() => 'ok', (error: unknown) => error)));
    assert.equal(outcomes.filter((outcome) => outcome === 'ok').length, 10);
    assert.equal(outcomes.filter((outcome) => outcome instanceof OpenAI.RateLimitError).length, 6);
    const ledger = await eventually(() => adminApi(second).usage({ key_id: keyId, group_by: 'day' }), (report) => report.data[0]?.requests === 16);
    assert.equal(ledger.data[0]?.requests, 16, 'both instances wrote to the one ledger');
  });
});

describe('SIGTERM under load', () => {
  test('in-flight requests finish, the process exits 0, and every answered request has its usage row', async () => {
    const gateway = await spawnGateway();
    const created = await runKeysCli(gateway.dataDir, ['create', '--name', 'load', '--json']);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const openai = openaiFor(gateway.origin, key);
    // The default config streams the built-in model with 20 ms between chunks: these are still running at SIGTERM.
    const load = Array.from({ length: 40 }, (_, i) =>
      openai.chat.completions
        .create({ model: 'builtin/echo', messages: [{ role: 'user', content: `request number ${i} of the load test` }], stream: true })
        .then(async (stream) => {
          for await (const _chunk of stream);
          return 'answered';
        })
        .catch((error: unknown) => (error instanceof OpenAI.APIError && error.status !== undefined ? 'answered' : 'refused')),
    );
    await sleep(150);
    gateway.child.kill('SIGTERM');
    const outcomes = await Promise.all(load);
    assert.equal(await gateway.exited, 0, gateway.output());
    const answered = outcomes.filter((outcome) => outcome === 'answered').length;
    assert.ok(answered > 0, 'some requests were in flight');
    const db = await openDatabase({ dataDir: gateway.dataDir });
    try {
      const rows = await db.selectFrom('usage_records').select(({ fn }) => fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      assert.equal(Number(rows.count), answered, 'no usage row was lost');
    } finally {
      await db.destroy();
    }
  });
});
