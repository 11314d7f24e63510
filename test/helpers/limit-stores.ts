// Test helpers: every limit store, opened fresh and isolated, for tests that run once per store.
// Redis must be running: a test that needs it fails with a clear message instead of passing silently.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { LimitStore } from '../../server/limits/limit-store.js';
import { MemoryLimitStore } from '../../server/limits/memory-limit-store.js';
import { RedisLimitStore } from '../../server/limits/redis-limit-store.js';

export const redisTestUrl = process.env.GATEWAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestLimitStore {
  store: LimitStore;
  cleanup(): Promise<void>;
}

export interface TestStoreOptions {
  leaseTtlMs?: number;
}

/** A Redis client that is connected, or an error that says Redis is not running where the tests expect it. */
export async function connectTestRedis(url = redisTestUrl): Promise<Redis> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  // Failures surface as rejected commands; the socket's own error (ECONNREFUSED …) is kept for the message,
  // since connect() itself only says "Connection is closed".
  let socketError: unknown;
  client.on('error', (error: unknown) => (socketError = error));
  try {
    await client.connect();
    return client;
  } catch (error) {
    client.disconnect();
    const cause = socketError ?? error;
    throw new Error(`Redis is not running at ${new URL(url).host}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** A key prefix no other test run uses, so parallel runs and reruns never see each other's counters. */
export function uniqueKeyPrefix(): string {
  return `test:limits:${process.pid}:${randomUUID()}:`;
}

/** Deletes every key under `prefix`. */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  for await (const keys of client.scanStream({ match: `${prefix}*`, count: 100 })) {
    if ((keys as string[]).length > 0) await client.del(...(keys as string[]));
  }
}

export async function memoryTestStore(options: TestStoreOptions = {}): Promise<TestLimitStore> {
  const store = new MemoryLimitStore(options);
  return { store, cleanup: () => store.close() };
}

export async function redisTestStore(options: TestStoreOptions = {}): Promise<TestLimitStore> {
  const client = await connectTestRedis();
  const keyPrefix = uniqueKeyPrefix();
  const store = new RedisLimitStore(client, { keyPrefix, ...options });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await deleteKeys(client, keyPrefix);
      await client.quit();
    },
  };
}

/** Both stores, for tests that run once per store. */
export const testLimitStores = [
  ['memory', memoryTestStore],
  ['Redis', redisTestStore],
] as const;
