// What only the Redis store promises: instances share counters, nothing lingers, scripts reload themselves.
// Needs the real Redis at 127.0.0.1:6379 (GATEWAY_TEST_REDIS_URL); without it these tests fail, by design.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { after, describe, test } from 'node:test';
import { connectTestRedis, deleteKeys, redisTestUrl, uniqueKeyPrefix } from '../../test/helpers/limit-stores.js';
import { RedisLimitStore } from './redis-limit-store.js';
import { RedisScript } from './redis-script.js';

const t0 = Date.UTC(2030, 4, 14, 12, 30, 15);

describe('limit store in Redis, across instances', () => {
  const keyPrefix = uniqueKeyPrefix();
  const clients: Redis[] = [];
  const connect = async () => {
    const client = await connectTestRedis();
    clients.push(client);
    return client;
  };
  after(async () => {
    if (clients[0]) await deleteKeys(clients[0], keyPrefix);
    await Promise.all(clients.map((client) => client.quit()));
  });

  test('two instances (two clients) share one requests_per_minute limit, even when racing', async () => {
    const first = new RedisLimitStore(await connect(), { keyPrefix });
    const second = new RedisLimitStore(await connect(), { keyPrefix });
    const scopes = [{ id: 'key:shared', limits: { requests_per_minute: 25 } }];
    const race = Array.from({ length: 40 }, (_, i) => (i % 2 ? first : second).reserve({ scopes, tokens: 1, now: t0 }));
    assert.equal((await Promise.all(race)).filter((result) => result.ok).length, 25);
    const late = await first.reserve({ scopes, tokens: 1, now: t0 });
    assert.equal(late.ok, false);
  });

  test('every key carries a TTL, and settle empties the concurrency set', async () => {
    const client = await connect();
    const store = new RedisLimitStore(client, { keyPrefix: `${keyPrefix}ttl:` });
    const scopes = [
      {
        id: 'key:ttl',
        limits: { requests_per_minute: 5, tokens_per_minute: 500, concurrent_requests: 2, spend_per_day_usd: 1, spend_per_month_usd: 9 },
      },
    ];
    const result = await store.reserve({ scopes, tokens: 50, now: Date.now() });
    assert.ok(result.ok);
    await store.settle(result.reservation, { tokens: 40, costUsd: 0.25 });
    const keys = await client.keys(`${keyPrefix}ttl:*`);
    assert.deepEqual(keys.map((key) => key.slice(`${keyPrefix}ttl:`.length).split(':')[0]).sort(), [
      'rpm',
      'spend-day',
      'spend-month',
      'tpm',
    ]); // the lease set went away with its last lease
    for (const key of keys) assert.ok((await client.pttl(key)) > 0, `${key} has a TTL`);
    assert.equal(await client.get(keys.find((key) => key.includes('spend-day'))!), '250000', 'micro-dollars');
  });

  test('a store made from a URL owns its client and closes it', async () => {
    const store = new RedisLimitStore(redisTestUrl, { keyPrefix: `${keyPrefix}url:` });
    const result = await store.reserve({ scopes: [{ id: 'key:url', limits: { requests_per_minute: 1 } }], tokens: 0, now: t0 });
    assert.ok(result.ok);
    await store.close();
  });

  test('a script Redis has not cached yet is sent whole once (NOSCRIPT fallback)', async () => {
    const client = await connect();
    const script = new RedisScript(`return ARGV[1] .. ' ${randomUUID()}'`); // never seen before: EVALSHA fails first
    assert.match(String(await script.run(client, [], ['hello'])), /^hello /);
    assert.match(String(await script.run(client, [], ['again'])), /^again /);
  });

  test('an unreachable Redis fails with a message that says so', async () => {
    await assert.rejects(connectTestRedis('redis://127.0.0.1:1'), /^Error: Redis is not running at 127\.0\.0\.1:1: /);
  });
});
