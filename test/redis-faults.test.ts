// Redis trouble, end to end. An outage of a private redis-server (kill -9, then a restart on the same port):
// limited accounts get their protocol's 503 within a second each, unlimited ones are served, a stream admitted
// before the outage finishes, and service comes back by itself. A crashed instance (kill -9 of one of two
// gateway processes sharing PostgreSQL and Redis): the slots it held are free again within the lease TTL.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { connectTestRedis } from './helpers/limit-stores.js';
import { adminApi } from './helpers/admin-api.js';
import { startPrivateRedis, type PrivateRedis } from './helpers/private-redis.js';
import { spawnGateway, type GatewayProcess } from './helpers/spawn-gateway.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { postgresSchemaUrl, redisUrl } from './helpers/test-databases.js';

const openaiFor = (origin: string, apiKey: string) => new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0, timeout: 10_000 });
const say = (client: OpenAI, model: string, content = 'hello there') => client.chat.completions.create({ model, messages: [{ role: 'user', content }] });
/** A streamed answer of `words` words, paced by the model's provider. */
const streamWords = (client: OpenAI, model: string, words: number) =>
  client.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: Array.from({ length: words }, (_, i) => `w${i}`).join(' ') }] });

/** The error a call ends with, and how long it took. */
async function timed<T>(call: () => Promise<T>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await call().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { error, ms: performance.now() - started };
}

describe('a Redis outage', () => {
  const config = configSchema.parse({
    providers: [
      { id: 'builtin', type: 'builtin', chunk_delay_ms: 0 },
      { id: 'paced', type: 'builtin', chunk_delay_ms: 150 },
    ],
    models: [
      { id: 'fast', provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming'] },
      { id: 'slow', provider: 'paced', upstream_model: 'echo', capabilities: ['chat', 'streaming'] },
    ],
  });
  let redis: PrivateRedis;
  let gateway: TestGateway;
  before(async () => {
    redis = await startPrivateRedis();
    gateway = await startGateway({ config, redisUrl: redis.url });
  });
  after(async () => {
    await gateway?.close();
    await redis?.kill();
  });

  test('limited accounts get 503 within 1 s each, unlimited ones are served, and it recovers by itself', async (t) => {
    const admin = adminApi(gateway);
    const limitedAccount = await admin.createAccount({ name: 'limited', limits: { requests_per_minute: 10_000, concurrent_requests: 5 } });
    const limitedKey = (await admin.createKey(limitedAccount.id, { name: 'k' })).key;
    const unlimitedAccount = await admin.createAccount({ name: 'unlimited' });
    const limited = openaiFor(gateway.origin, limitedKey);
    const unlimited = openaiFor(gateway.origin, (await admin.createKey(unlimitedAccount.id, { name: 'k' })).key);
    await say(limited, 'fast'); // Redis is up: served

    // Admitted before the outage, it settles during it (about 2 s of words at 150 ms each).
    const inFlight = await streamWords(limited, 'slow', 14);
    const inFlightIterator = inFlight[Symbol.asyncIterator]();
    const firstChunk = await inFlightIterator.next();
    assert.equal(firstChunk.done, false);

    await redis.kill();

    let slowest = 0;
    for (let i = 0; i < 20; i++) {
      const { error, ms } = await timed(() => say(limited, 'fast'));
      slowest = Math.max(slowest, ms);
      assert.ok(error instanceof OpenAI.APIError && error.status === 503, `request ${i}: expected 503, got ${String(error)}`);
      assert.ok(ms < 1000, `request ${i}: 503 after ${Math.round(ms)} ms`);
      assert.deepEqual([error.type, error.code, error.headers?.get('retry-after')], ['server_error', 'overloaded', '1']);
    }
    t.diagnostic(`the slowest of 20 refusals took ${Math.round(slowest)} ms`);
    const anthropic = new Anthropic({ authToken: limitedKey, apiKey: null, baseURL: gateway.origin, maxRetries: 0 });
    const { error: anthropicError, ms: anthropicMs } = await timed(() =>
      anthropic.messages.create({ model: 'fast', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
    );
    assert.ok(anthropicError instanceof Anthropic.APIError, String(anthropicError));
    assert.equal(anthropicError.status, 529, "Anthropic's own status for overloaded");
    assert.equal((anthropicError.error as { error?: { type?: string } }).error?.type, 'overloaded_error');
    assert.ok(anthropicMs < 1000, `Anthropic 529 after ${Math.round(anthropicMs)} ms`);

    for (let i = 0; i < 5; i++) {
      const { error, ms } = await timed(() => say(unlimited, 'fast', `unlimited ${i}`));
      assert.equal(error, undefined, `unlimited request ${i} failed after ${Math.round(ms)} ms: ${String(error)}`);
    }
    let streamed = '';
    for await (const chunk of await streamWords(unlimited, 'fast', 5)) streamed += chunk.choices[0]?.delta.content ?? '';
    assert.equal(streamed, 'You said: w0 w1 w2 w3 w4');

    // The stream admitted before the outage is served to its end; its settle fails, and only its.
    let rest = String(firstChunk.value.choices[0]?.delta.content ?? '');
    for (let next = await inFlightIterator.next(); !next.done; next = await inFlightIterator.next()) rest += next.value.choices[0]?.delta.content ?? '';
    assert.equal(rest, `You said: ${Array.from({ length: 14 }, (_, i) => `w${i}`).join(' ')}`);
    const settleFailures = () => gateway.logs.filter((line) => line.includes('settling a limit reservation failed')).length;
    for (let waited = 0; settleFailures() === 0 && waited < 2000; waited += 50) await sleep(50);
    assert.equal(settleFailures(), 1, 'the in-flight stream settles (and fails); unlimited requests never touch Redis, settle included');
    assert.ok(gateway.logs.some((line) => line.includes('Redis for limits is unreachable')));

    await redis.restart();
    const restartedAt = performance.now();
    let recoveredAfterMs: number | undefined;
    while (recoveredAfterMs === undefined && performance.now() - restartedAt < 5_000) {
      const { error } = await timed(() => say(limited, 'fast'));
      if (error === undefined) recoveredAfterMs = performance.now() - restartedAt;
      else await sleep(100);
    }
    assert.ok(recoveredAfterMs !== undefined, 'limited requests are served again within 5 s of Redis coming back');
    t.diagnostic(`served again ${Math.round(recoveredAfterMs)} ms after Redis came back`);
    assert.ok(gateway.logs.some((line) => line.includes('Redis for limits is reachable again')));
    // The restarted Redis is empty: limits count again from there (the concurrency limit still holds).
    const held = await Promise.all(Array.from({ length: 5 }, () => streamWords(limited, 'slow', 6)));
    const refused = await timed(() => say(limited, 'fast'));
    assert.ok(refused.error instanceof OpenAI.RateLimitError, `sixth concurrent request: ${String(refused.error)}`);
    await Promise.all(held.map(async (stream) => { for await (const _chunk of stream); }));
  });

  test('a Redis that stops answering (connections open) also gives 503 within 1 s: the command timeout', async () => {
    const admin = adminApi(gateway);
    // No concurrency limit here: the reserves that timed out still run once Redis resumes, and their leases
    // would hold slots, by no request, until they expire.
    const account = await admin.createAccount({ name: 'limited, hung Redis', limits: { requests_per_minute: 10_000 } });
    const limited = openaiFor(gateway.origin, (await admin.createKey(account.id, { name: 'k' })).key);
    await say(limited, 'fast');
    redis.pause();
    try {
      for (let i = 0; i < 5; i++) {
        const { error, ms } = await timed(() => say(limited, 'fast'));
        assert.ok(error instanceof OpenAI.APIError && error.status === 503, `request ${i}: expected 503, got ${String(error)}`);
        assert.ok(ms < 1000, `request ${i}: 503 after ${Math.round(ms)} ms`);
      }
    } finally {
      redis.resume();
    }
    const { error } = await timed(() => say(limited, 'fast'));
    assert.equal(error, undefined, 'served as soon as Redis answers again');
  });
});

describe('a crashed instance', () => {
  let database: Awaited<ReturnType<typeof postgresSchemaUrl>>;
  let configDir: string;
  const gateways: GatewayProcess[] = [];
  before(async () => {
    (await connectTestRedis(redisUrl)).disconnect(); // a clear failure when Redis is not running
    database = await postgresSchemaUrl();
    configDir = await mkdtemp(join(tmpdir(), 'gateway-leases-'));
  });
  after(async () => {
    for (const gateway of gateways) gateway.child.kill('SIGKILL');
    await Promise.all(gateways.map((gateway) => gateway.exited));
    await database?.cleanup();
    await rm(configDir, { recursive: true, force: true });
  });

  test("frees its concurrency slots within 30 s: the other instance refuses at first, then admits", async (t) => {
    const configPath = join(configDir, 'gateway.yaml');
    await writeFile(
      configPath,
      [
        'providers:',
        '  - { id: builtin, type: builtin, chunk_delay_ms: 0 }',
        '  - { id: paced, type: builtin, chunk_delay_ms: 300 }',
        'models:',
        '  - { id: fast, provider: builtin, upstream_model: echo, capabilities: [chat, streaming] }',
        '  - { id: slow, provider: paced, upstream_model: echo, capabilities: [chat, streaming] }',
        '',
      ].join('\n'),
    );
    const adminKey = `admin-${Math.random().toString(36).slice(2)}`;
    const env = { GATEWAY_CONFIG: configPath, GATEWAY_DATABASE_URL: database.url, GATEWAY_REDIS_URL: redisUrl, GATEWAY_ADMIN_KEY: adminKey };
    // One after the other: the first migrates the fresh schema.
    const first = await spawnGateway(env);
    gateways.push(first);
    const second = await spawnGateway(env);
    gateways.push(second);

    const admin = adminApi({ origin: first.origin, adminKey });
    const account = await admin.createAccount({ name: 'two slots', limits: { concurrent_requests: 2 } });
    const { key } = await admin.createKey(account.id, { name: 'k' });
    const onFirst = openaiFor(first.origin, key);
    const onSecond = openaiFor(second.origin, key);

    // Two streams of a minute each hold both slots on the first instance.
    const streams = await Promise.all([streamWords(onFirst, 'slow', 200), streamWords(onFirst, 'slow', 200)]);
    const drained = streams.map(async (stream) => {
      const chunks = stream[Symbol.asyncIterator]();
      await chunks.next();
      return chunks;
    });
    const iterators = await Promise.all(drained);
    const refusedBeforeKill = await timed(() => say(onSecond, 'fast'));
    assert.ok(refusedBeforeKill.error instanceof OpenAI.RateLimitError, `the slots are shared: ${String(refusedBeforeKill.error)}`);

    first.child.kill('SIGKILL');
    assert.equal(await first.exited, null, 'killed, not exited');
    const killedAt = performance.now();
    // The streams died with their instance.
    await Promise.all(iterators.map((chunks) => (async () => { while (!(await chunks.next()).done); })().catch(() => undefined)));

    const refusedAfterKill = await timed(() => say(onSecond, 'fast'));
    assert.ok(refusedAfterKill.error instanceof OpenAI.RateLimitError, `the dead instance's leases still count at first: ${String(refusedAfterKill.error)}`);
    let admittedAfterMs: number | undefined;
    while (admittedAfterMs === undefined && performance.now() - killedAt < 30_000) {
      const { error } = await timed(() => say(onSecond, 'fast'));
      if (error === undefined) admittedAfterMs = performance.now() - killedAt;
      else {
        assert.ok(error instanceof OpenAI.RateLimitError, `only 429 while the slots are taken: ${String(error)}`);
        await sleep(250);
      }
    }
    assert.ok(admittedAfterMs !== undefined, "the crashed instance's slots were still taken 30 s after the kill");
    t.diagnostic(`admitted ${Math.round(admittedAfterMs)} ms after the kill`);
    // Each running request renews its own lease on its own timer (limits/lease-renewals.ts), so the two dead
    // leases lapse as far apart as their streams started: wait for the second one too, within the same 30 s.
    let bothFree = false;
    while (!bothFree && performance.now() - killedAt < 30_000) {
      const pair = await Promise.all([timed(() => say(onSecond, 'fast')), timed(() => say(onSecond, 'fast'))]);
      bothFree = pair.every(({ error }) => error === undefined);
      if (!bothFree) await sleep(250);
    }
    assert.ok(bothFree, "the crashed instance's second slot was still taken 30 s after the kill");
    // Both slots are free: two at a time again, on the surviving instance.
    const both = await Promise.all([streamWords(onSecond, 'slow', 1), streamWords(onSecond, 'slow', 1)]);
    await Promise.all(both.map(async (stream) => { for await (const _chunk of stream); }));
  });
});
