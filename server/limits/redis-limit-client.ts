import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * How long one command may take before it fails. Two round trips (EVALSHA, then EVAL after a NOSCRIPT)
 * still fit in the second within which a limited request must get its 503 when Redis is unresponsive.
 */
const commandTimeoutMs = 400;

/**
 * A Redis client for the limit counters that fails fast and heals by itself. When Redis is down, a limited
 * request must get its 503 at once rather than wait for the outage to end, so:
 * - no offline queue: a command while disconnected is refused immediately (ioredis would otherwise queue it
 *   until Redis is back);
 * - no retries of a command, and none resent after a reconnect: a reserve the caller already gave up on must
 *   not be counted later;
 * - a command timeout for a Redis that accepts connections but does not answer, and a bounded connect time;
 * - reconnecting in the background forever, at most a second apart, so service resumes by itself.
 * Connection trouble is logged once when it starts and once when it ends, not on every retry.
 */
export function createRedisLimitClient(url: string, logger?: Logger): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  let down = false;
  // Without an 'error' listener ioredis prints every failed reconnect to the console.
  client.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    logger?.error({ err: error }, 'Redis for limits is unreachable: requests with limits get 503 until it is back');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info('Redis for limits is reachable again');
  });
  return client;
}

/**
 * Resolves when the client is first ready, or after `waitMs`, whichever comes first; never rejects. Lets
 * the first requests after start-up wait for the connection instead of being refused for lack of a queue.
 */
export function firstReady(client: Redis, waitMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    timer.unref();
    client.on('ready', done);
  });
}
