import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { describeRefusal, pickRefusal } from './describe-refusal.js';
import { leaseKeysOf } from './lease-keys.js';
import { defaultLeaseTtlMs, type LimitStore, type Reservation, type ReserveRequest, type ReserveResult } from './limit-store.js';
import { amountWithGrant, planReserveChecks, reserveAmountsOf, reservedTotals } from './plan-reserve-checks.js';
import { planSettleSteps } from './plan-settle-steps.js';
import { createRedisLimitClient, firstReady } from './redis-limit-client.js';
import { reserveScript, settleScript } from './redis-limit-scripts.js';
import { renewScript } from './redis-renew-script.js';

export interface RedisLimitStoreOptions {
  /** Prepended to every key, so several gateways (or test runs) can share one Redis. Default `gateway:limits:`. */
  keyPrefix?: string;
  /**
   * How long a concurrency slot is held unless renewed or settled: `defaultLeaseTtlMs` (15 s) by default.
   * A crashed instance's slots are free again within it; a running request renews its own (lease-renewals.ts).
   */
  leaseTtlMs?: number;
  /** Where a store made from a URL reports Redis going away and coming back. */
  logger?: Logger;
}

/**
 * Limit counters in Redis, shared by every gateway instance that uses the same Redis and key prefix. Each
 * operation is one Lua script, so a reservation is checked and counted atomically across instances. Every
 * key carries a TTL; concurrency slots are leases in a sorted set scored by their expiry.
 *
 * All keys of one reservation go to one script, so on Redis Cluster they must share a slot: put a hash
 * tag in the prefix (`{limits}:`).
 *
 * @example
 * const limits = new RedisLimitStore(process.env.REDIS_URL!, { keyPrefix: 'gw:limits:' });
 */
export class RedisLimitStore implements LimitStore {
  private readonly client: Redis;
  /** Only a client the store created from a URL is closed by `close()`; a passed-in one belongs to the caller. */
  private readonly ownsClient: boolean;
  private readonly keyPrefix: string;
  readonly leaseTtlMs: number;
  private readonly settled = new WeakSet<Reservation>();
  /** A store made from a URL lets requests wait (briefly) for its first connection; see firstReady. */
  private readonly started: Promise<void>;

  constructor(redis: Redis | string, options: RedisLimitStoreOptions = {}) {
    this.ownsClient = typeof redis === 'string';
    this.client = typeof redis === 'string' ? createRedisLimitClient(redis, options.logger) : redis;
    this.keyPrefix = options.keyPrefix ?? 'gateway:limits:';
    this.leaseTtlMs = options.leaseTtlMs ?? defaultLeaseTtlMs;
    this.started = this.ownsClient ? firstReady(this.client, 1_000) : Promise.resolve();
  }

  async reserve(request: ReserveRequest): Promise<ReserveResult> {
    await this.started;
    const now = request.now ?? Date.now();
    const amounts = reserveAmountsOf(request);
    const checks = planReserveChecks(request.scopes, amounts, now, this.leaseTtlMs);
    const leaseId = randomUUID();
    let grant = 0;
    if (checks.length > 0) {
      const { flexibleOutput } = request;
      const reply = await reserveScript.run(
        this.client,
        checks.map((check) => this.keyPrefix + check.key),
        [
          now,
          leaseId,
          now + this.leaseTtlMs,
          flexibleOutput ? 1 : 0,
          flexibleOutput?.upTo ?? 0,
          ...checks.flatMap((check) => [check.kind, check.ceiling, check.amount, check.perGrantedToken, check.boundsGrant ? 1 : 0, check.ttlMs]),
        ],
      );
      const { granted, refused } = readReserveReply(reply);
      grant = granted;
      const refusal = pickRefusal(refused.map(([index, used]) => describeRefusal(checks[index - 1]!, used, now, amountWithGrant(checks[index - 1]!, grant))));
      if (refusal) return { ok: false, refusal };
    } else if (request.flexibleOutput) {
      grant = request.flexibleOutput.upTo;
    }
    const scopes = request.scopes.map(({ id, limits }) => ({ id, limits: { ...limits } }));
    const granted = request.flexibleOutput ? { grantedOutputTokens: grant } : {};
    return { ok: true, reservation: { scopes, ...reservedTotals(amounts, grant), ...granted, reservedAt: now, leaseId } };
  }

  /**
   * A settle that fails (Redis down or too slow) is not retried: the lease stays until its TTL runs out
   * (renewals stop with the settle), so the slot is free again within `leaseTtlMs`; the counters keep what
   * reserve counted, uncorrected: the minute's tokens stay at the estimate until the minute ends, and
   * spend keeps only what reserve put there, not the request's actual cost.
   */
  async settle(reservation: Reservation, actual: { tokens: number; costUsd: number }): Promise<void> {
    if (this.settled.has(reservation)) return;
    this.settled.add(reservation);
    const steps = planSettleSteps(reservation, actual);
    if (steps.length === 0) return;
    await settleScript.run(
      this.client,
      steps.map((step) => this.keyPrefix + step.key),
      [
        reservation.leaseId,
        ...steps.flatMap((step) => {
          switch (step.kind) {
            case 'release':
              return [step.kind, 0, 0];
            case 'adjust':
              return [step.kind, step.delta, 0];
            case 'add':
              return [step.kind, step.amount, step.ttlMs];
          }
        }),
      ],
    );
  }

  async renew(reservation: Reservation, now = Date.now()): Promise<boolean> {
    if (this.settled.has(reservation)) return false;
    const keys = leaseKeysOf(reservation);
    if (keys.length === 0) return true;
    const renewed = await renewScript.run(
      this.client,
      keys.map((key) => this.keyPrefix + key),
      [now, reservation.leaseId, now + this.leaseTtlMs, this.leaseTtlMs],
    );
    return renewed === keys.length;
  }

  /** Whether Redis answers now (readiness); fails fast while disconnected, since nothing is queued offline. */
  async reachable(): Promise<boolean> {
    return (await this.client.ping().catch(() => undefined)) === 'PONG';
  }

  async close(): Promise<void> {
    if (!this.ownsClient) return;
    // QUIT cannot be sent while Redis is down (no offline queue); disconnecting also stops the reconnect timer.
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** The reserve script's reply, `[grant, index, used, index, used, …]`; anything else is a bug worth a throw. */
function readReserveReply(reply: unknown): { granted: number; refused: Array<[number, number]> } {
  if (!Array.isArray(reply) || reply.length % 2 !== 1 || !reply.every(Number.isInteger)) {
    throw new Error(`Unexpected reply from the limit reserve script: ${JSON.stringify(reply)}`);
  }
  const refused: Array<[number, number]> = [];
  for (let i = 1; i < reply.length; i += 2) refused.push([reply[i], reply[i + 1]]);
  return { granted: reply[0], refused };
}
