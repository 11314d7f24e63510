// Spend and tokens-per-minute limits as ceilings under concurrency, and refunds: 40 concurrent requests
// against a spend limit on one instance and on two gateway processes sharing PostgreSQL and Redis; 40
// concurrent requests that name no output cap against tokens_per_minute, served by an upstream that writes
// as long as it is allowed to; refused and failed requests holding nothing of the minute's tokens.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { stringify } from 'yaml';
import { configSchema } from '../server/config/config-schema.js';
import { connectTestRedis } from './helpers/limit-stores.js';
import { adminApi } from './helpers/admin-api.js';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from './helpers/fake-upstream.js';
import { awayFromMinuteEdge } from './helpers/minute-window.js';
import { spawnGateway, type GatewayProcess } from './helpers/spawn-gateway.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { postgresSchemaUrl, redisUrl } from './helpers/test-databases.js';

const prices = { input_per_mtok: 3, output_per_mtok: 15 };
/** What an upstream without a cap writes: far more than the gateway's old 1,024-token allowance. */
const unboundedAnswerTokens = 3_000;

function configWith(upstream: FakeUpstream) {
  return {
    providers: [
      { id: 'builtin', type: 'builtin' },
      { id: 'talkative', type: 'openai', base_url: `${upstream.origin}/v1`, api_key: 'sk-upstream-test' },
    ],
    models: [
      { id: 'priced', provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming'], pricing: prices },
      { id: 'talkative', provider: 'talkative', capabilities: ['chat', 'streaming'], pricing: prices },
    ],
    routing: { max_attempts: 1 },
  };
}

/**
 * An OpenAI Chat Completions upstream (shape of test/fixtures/upstream-recorded/openai-chat/non-stream-text.json)
 * that writes `unboundedAnswerTokens` unless the request caps it lower, and reports that usage.
 */
function talkativeReply(request: RecordedRequest) {
  const body = request.json as { model: string; messages: Array<{ content: string }>; max_completion_tokens?: number; max_tokens?: number };
  const completion = Math.min(body.max_completion_tokens ?? body.max_tokens ?? Infinity, unboundedAnswerTokens);
  // About what OpenAI counts for a short chat: a token a word, and a few for each message's framing.
  const prompt = body.messages.reduce((sum, message) => sum + 4 + message.content.split(/\s+/).length, 3);
  return {
    json: {
      id: 'chatcmpl-talkative',
      object: 'chat.completion',
      created: 1_767_225_600,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'word '.repeat(completion).trim(), refusal: null }, logprobs: null, finish_reason: 'length' }],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    },
  };
}

const openaiFor = (origin: string, apiKey: string) => new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0, timeout: 30_000 });
type Admin = ReturnType<typeof adminApi>;

async function ledgerOf(admin: Admin, keyId: string, requests: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const report = await admin.usage({ key_id: keyId, group_by: 'day' });
    if (report.data[0]?.requests === requests || Date.now() > deadline) return report.data[0];
    await sleep(100);
  }
}

/** About $0.013 at most: a ~1,100-token prompt the built-in model echoes, cut at 700 output tokens. */
const costlyPrompt = 'word '.repeat(900);

/** 40 concurrent chats of about $0.013 each against a $0.03 day, spread over `origins`; what the ledger says was spent. */
async function spendRace(admin: Admin, origins: string[]) {
  const ceiling = 0.03;
  const account = await admin.createAccount({ name: 'thrifty', limits: { spend_per_day_usd: ceiling } });
  const { key, id: keyId } = await admin.createKey(account.id, { name: 'k' });
  const clients = origins.map((origin) => openaiFor(origin, key));
  const outcomes = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      clients[i % clients.length]!.chat.completions
        .create({ model: 'priced', messages: [{ role: 'user', content: costlyPrompt }], max_tokens: 700 })
        .then(() => 'served', (error: unknown) => error),
    ),
  );
  const served = outcomes.filter((outcome) => outcome === 'served').length;
  const refused = outcomes.filter((outcome) => outcome instanceof OpenAI.RateLimitError);
  assert.equal(served + refused.length, 40, `every request was served or refused with 429: ${outcomes.filter((o) => o !== 'served' && !(o instanceof OpenAI.RateLimitError)).join('; ')}`);
  assert.ok(served >= 2, `two worst cases fit in the day's limit, ${served} were served`);
  assert.match((refused[0] as Error).message, /Spend limit reached for account .*: \$0\.03 per UTC day/);
  const ledger = await ledgerOf(admin, keyId, 40);
  assert.equal(ledger?.requests, 40, 'one ledger row per request');
  assert.ok(ledger!.cost_usd > 0.02, `the limit is used, not just refused: $${ledger!.cost_usd}`);
  assert.ok(ledger!.cost_usd <= ceiling, `$${ledger!.cost_usd} spent against a limit of $${ceiling}`);
}

describe('limits that hold on one instance', () => {
  let upstream: FakeUpstream;
  let gateway: TestGateway;
  before(async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ config: configSchema.parse(configWith(upstream)) });
  });
  after(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  test('spend: 40 concurrent requests never spend more than spend_per_day_usd', () => spendRace(adminApi(gateway), [gateway.origin]));

  test('tokens per minute: requests without an output cap get one from the gateway, so 2 × 40 concurrent stay within the limit', async () => {
    await awayFromMinuteEdge();
    const limit = 20_000;
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'capped', limits: { tokens_per_minute: limit } });
    const { key, id: keyId } = await admin.createKey(account.id, { name: 'k' });
    const openai = openaiFor(gateway.origin, key);
    for (let i = 0; i < 80; i++) upstream.enqueue({ respond: talkativeReply });
    const sentBefore = upstream.requests.length;
    const burst = () =>
      Promise.all(
        Array.from({ length: 40 }, () =>
          openai.chat.completions.create({ model: 'talkative', messages: [{ role: 'user', content: 'Tell me everything.' }] }).then(
            (completion) => completion.usage!.total_tokens,
            (error: unknown) => error,
          ),
        ),
      );
    // The first burst's grants are worst cases; once settled, what they did not use serves the second.
    const outcomes = [...(await burst()), ...(await burst())];
    upstream.discardQueued();
    const used = outcomes.filter((outcome): outcome is number => typeof outcome === 'number');
    assert.equal(used.length + outcomes.filter((outcome) => outcome instanceof OpenAI.RateLimitError).length, 80, String(outcomes.find((o) => typeof o !== 'number')));
    const total = used.reduce((sum, tokens) => sum + tokens, 0);
    assert.ok(total <= limit, `${total} tokens served against a limit of ${limit}`);
    assert.ok(total > limit / 2, `the limit is used, not just refused: ${total}`);
    // The cap went upstream in Chat Completions' own field, never above the gateway's default.
    const caps = upstream.requests.slice(sentBefore).map((request) => (request.json as { max_completion_tokens?: number }).max_completion_tokens);
    assert.ok(caps.length >= used.length && caps.every((cap) => cap !== undefined && cap >= 16 && cap <= 8_192), `caps sent upstream: ${caps.join(', ')}`);
    const ledger = await ledgerOf(admin, keyId, 80);
    assert.equal(ledger!.input_tokens + ledger!.output_tokens, total, 'the ledger agrees');
  });

  test('a cap the client names is left alone, and one set by the gateway never exceeds limits.default_output_tokens', async () => {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'roomy', limits: { tokens_per_minute: 1_000_000 } });
    const { key } = await admin.createKey(account.id, { name: 'k' });
    const openai = openaiFor(gateway.origin, key);
    upstream.enqueue({ respond: talkativeReply }, { respond: talkativeReply });
    const sentBefore = upstream.requests.length;
    await openai.chat.completions.create({ model: 'talkative', messages: [{ role: 'user', content: 'hi' }], max_tokens: 50 });
    await openai.chat.completions.create({ model: 'talkative', messages: [{ role: 'user', content: 'hi' }] });
    const [named, granted] = upstream.requests.slice(sentBefore).map((request) => request.json as Record<string, unknown>);
    // The openai provider sends a client's max_tokens as max_completion_tokens: either way, the client's 50.
    assert.equal(named!.max_completion_tokens ?? named!.max_tokens, 50);
    assert.equal(granted!.max_completion_tokens, 8_192);
  });

  test('refused and failed requests hold none of the minute: good requests still get in afterwards', async () => {
    await awayFromMinuteEdge();
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'unlucky', limits: { tokens_per_minute: 3_000, spend_per_day_usd: 0.05 } });
    const { key, id: keyId } = await admin.createKey(account.id, { name: 'k' });
    const openai = openaiFor(gateway.origin, key);
    const ask = (model: string) => openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }], max_tokens: 1_000 });
    // Each of these reserves over 1,000 tokens and ~$0.015: kept, two would use up the minute and the day.
    for (let i = 0; i < 5; i++) await assert.rejects(ask('no-such-model'), OpenAI.NotFoundError);
    const restricted = await admin.createKey(account.id, { name: 'only priced', permissions: { models: ['priced'] } });
    for (let i = 0; i < 5; i++) await assert.rejects(openaiFor(gateway.origin, restricted.key).chat.completions.create({ model: 'talkative', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1_000 }), OpenAI.PermissionDeniedError);
    for (let i = 0; i < 5; i++) {
      upstream.enqueue({ status: 502, json: { error: { message: 'upstream overloaded', type: 'server_error' } } });
      await assert.rejects(ask('talkative'), OpenAI.InternalServerError);
    }
    const answer = await ask('priced');
    assert.ok(answer.usage!.total_tokens > 0);
    const ledger = await ledgerOf(admin, keyId, 11);
    assert.equal(ledger?.requests, 11);
    assert.equal(ledger!.input_tokens + ledger!.output_tokens, answer.usage!.total_tokens, 'failed requests used no tokens');
  });
});

describe('limits that hold across two gateway processes sharing PostgreSQL and Redis', () => {
  let database: Awaited<ReturnType<typeof postgresSchemaUrl>>;
  let upstream: FakeUpstream;
  const gateways: GatewayProcess[] = [];
  const adminKey = `admin-${Math.random().toString(36).slice(2)}`;
  before(async () => {
    (await connectTestRedis(redisUrl)).disconnect(); // a clear failure when Redis is not running
    database = await postgresSchemaUrl();
    upstream = await startFakeUpstream();
    const configPath = join(await mkdtemp(join(tmpdir(), 'limits-config-')), 'gateway.yaml');
    await writeFile(configPath, stringify(configWith(upstream)));
    const env = { GATEWAY_CONFIG: configPath, GATEWAY_ADMIN_KEY: adminKey, GATEWAY_DATABASE_URL: database.url, GATEWAY_REDIS_URL: redisUrl };
    // One after the other: the first migrates the schema.
    for (let i = 0; i < 2; i++) gateways.push(await spawnGateway(env));
  });
  after(async () => {
    for (const gateway of gateways) {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    }
    await upstream?.close();
    await database?.cleanup();
  });

  test('spend: 40 concurrent requests split over both never spend more than spend_per_day_usd', () =>
    spendRace(adminApi({ origin: gateways[0]!.origin, adminKey }), gateways.map((gateway) => gateway.origin)));
});
