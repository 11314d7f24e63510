// The limit semantics, once per store: in memory and on the real Redis (127.0.0.1:6379, required).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../logging/logger.js';
import type { Limits } from '../access/access-types.js';
import type { LimitScope, LimitStore, ReserveResult } from './limit-store.js';
import { testLimitStores, type TestLimitStore, type TestStoreOptions } from '../../test/helpers/limit-stores.js';
import { msUntilNextUtcMonth } from './limit-windows.js';
import { createLeaseRenewals } from './lease-renewals.js';

/** 2030-05-14 12:30:15 UTC: 45 s before the next minute, so no test straddles a window by accident. */
const t0 = Date.UTC(2030, 4, 14, 12, 30, 15);
const dayMs = 86_400_000;
const silentLogger = createLogger('silent');
const key = (limits: Limits): LimitScope => ({ id: 'key:key_2', limits });
const account = (limits: Limits): LimitScope => ({ id: 'account:acct_1', limits });

function refusalOf(result: ReserveResult) {
  assert.equal(result.ok, false, 'expected a refusal');
  return (result as Extract<ReserveResult, { ok: false }>).refusal;
}

function reservationOf(result: ReserveResult) {
  assert.equal(result.ok, true, result.ok ? '' : `expected admission, got: ${result.refusal.message}`);
  return (result as Extract<ReserveResult, { ok: true }>).reservation;
}

for (const [name, open] of testLimitStores) {
  describe(`limit store in ${name}`, () => {
    const opened: TestLimitStore[] = [];
    const fresh = async (options?: TestStoreOptions): Promise<LimitStore> => {
      const testStore = await open(options);
      opened.push(testStore);
      return testStore.store;
    };
    after(async () => {
      for (const testStore of opened) await testStore.cleanup();
    });

    test('requests_per_minute refuses request N+1 until the next minute', async () => {
      const store = await fresh();
      const scopes = [key({ requests_per_minute: 3 })];
      for (let i = 0; i < 3; i++) reservationOf(await store.reserve({ scopes, tokens: 10, now: t0 }));
      assert.deepEqual(refusalOf(await store.reserve({ scopes, tokens: 10, now: t0 })), {
        scopeId: 'key:key_2',
        limit: 'requests_per_minute',
        retryAfterSeconds: 45,
        retryable: true,
        message: 'Rate limit reached for key key_2: 3 requests per minute. Try again in 45 s.',
      });
      assert.equal(refusalOf(await store.reserve({ scopes, tokens: 10, now: t0 + 44_999 })).retryAfterSeconds, 1);
      reservationOf(await store.reserve({ scopes, tokens: 10, now: t0 + 45_000 }));
    });

    test('tokens_per_minute: settle corrects the reserved tokens to the actual count', async () => {
      const store = await fresh();
      const scopes = [key({ tokens_per_minute: 1000 })];
      const big = reservationOf(await store.reserve({ scopes, tokens: 800, now: t0 }));
      const refusal = refusalOf(await store.reserve({ scopes, tokens: 300, now: t0 }));
      assert.equal(refusal.limit, 'tokens_per_minute');
      assert.equal(refusal.message, 'Rate limit reached for key key_2: 1000 tokens per minute. Try again in 45 s.');
      await store.settle(big, { tokens: 100, costUsd: 0 }, t0);
      reservationOf(await store.reserve({ scopes, tokens: 300, now: t0 })); // 400 used
      refusalOf(await store.reserve({ scopes, tokens: 601, now: t0 }));
      reservationOf(await store.reserve({ scopes, tokens: 600, now: t0 }));
    });

    test('a request bigger than the whole tokens_per_minute is refused, and waiting will not help', async () => {
      const store = await fresh();
      const refusal = refusalOf(await store.reserve({ scopes: [key({ tokens_per_minute: 1000 })], tokens: 1001, now: t0 }));
      assert.equal(refusal.retryable, false);
      assert.equal(refusal.message, 'Request too large for key key_2: it needs 1001 tokens but the limit is 1000 tokens per minute. Ask for fewer tokens.');
    });

    test('a second settle of the same reservation changes nothing', async () => {
      const store = await fresh();
      const scopes = [key({ tokens_per_minute: 1000, concurrent_requests: 5 })];
      const first = reservationOf(await store.reserve({ scopes, tokens: 600, now: t0 }));
      reservationOf(await store.reserve({ scopes, tokens: 300, now: t0 }));
      await store.settle(first, { tokens: 0, costUsd: 0 }, t0);
      await store.settle(first, { tokens: 0, costUsd: 0 }, t0); // would free 600 more if counted twice
      refusalOf(await store.reserve({ scopes, tokens: 701, now: t0 }));
      reservationOf(await store.reserve({ scopes, tokens: 700, now: t0 }));
    });

    test('concurrent_requests: settle frees the slot', async () => {
      const store = await fresh();
      const scopes = [account({ concurrent_requests: 2 })];
      const first = reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 }));
      reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 }));
      assert.deepEqual(refusalOf(await store.reserve({ scopes, tokens: 0, now: t0 })), {
        scopeId: 'account:acct_1',
        limit: 'concurrent_requests',
        retryAfterSeconds: 1,
        retryable: true,
        message: 'Concurrency limit reached for account acct_1: 2 requests at a time. Try again in 1 s.',
      });
      await store.settle(first, { tokens: 0, costUsd: 0 }, t0);
      reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 }));
    });

    test('concurrent_requests: a slot never settled (crashed instance) frees itself when its lease expires', async () => {
      const store = await fresh({ leaseTtlMs: 1000 });
      const scopes = [account({ concurrent_requests: 1 })];
      reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 }));
      refusalOf(await store.reserve({ scopes, tokens: 0, now: t0 + 999 }));
      reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 + 1000 }));
    });

    test('renew: a renewed lease outlives its first TTL; settle and expiry end it, and renew never brings it back', async () => {
      const store = await fresh({ leaseTtlMs: 1000 });
      const scopes = [account({ concurrent_requests: 2 }), key({ concurrent_requests: 5, requests_per_minute: 100 })];
      const long = reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 }));
      assert.equal(await store.renew(long, t0 + 900), true);
      reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 + 1500 }));
      refusalOf(await store.reserve({ scopes, tokens: 0, now: t0 + 1500 })); // `long` still holds its slot past t0 + 1000
      assert.equal(await store.renew(long, t0 + 1901), false, 'expired at t0 + 1900: too late to renew');
      // Not brought back: with it lapsed, two more fit beside the one taken at t0 + 1500 (which expires at t0 + 2500).
      reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 + 1902 }));
      refusalOf(await store.reserve({ scopes, tokens: 0, now: t0 + 1902 }));
    });

    test('renew after settle does nothing: the slot stays free', async () => {
      const store = await fresh({ leaseTtlMs: 1000 });
      const scopes = [account({ concurrent_requests: 1 })];
      const first = reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 }));
      await store.settle(first, { tokens: 0, costUsd: 0 }, t0 + 100);
      assert.equal(await store.renew(first, t0 + 200), false);
      reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 + 300 }));
    });

    test('a long request keeps its slot past the short TTL because it is renewed, and frees it on settle', async () => {
      // Real time: the renewals run on their own timers, a third of the 1 s TTL apart, so only an event
      // loop stalled for a whole second (not a busy CI machine) could let the renewed lease lapse.
      const store = await fresh({ leaseTtlMs: 1000 });
      const renewals = createLeaseRenewals(store, silentLogger);
      const scopes = [account({ concurrent_requests: 1 })];
      const long = reservationOf(await store.reserve({ scopes, tokens: 0 }));
      renewals.start(long);
      const unrenewed = reservationOf(await store.reserve({ scopes: [key({ concurrent_requests: 1 })], tokens: 0 }));
      await sleep(3200);
      try {
        refusalOf(await store.reserve({ scopes, tokens: 0 })); // held for more than three TTLs
        reservationOf(await store.reserve({ scopes: [key({ concurrent_requests: 1 })], tokens: 0 })); // the unrenewed lapsed
      } finally {
        renewals.stop(long);
      }
      await store.settle(long, { tokens: 0, costUsd: 0 });
      reservationOf(await store.reserve({ scopes, tokens: 0 }));
      assert.equal(await store.renew(unrenewed), false);
    });

    test('spend_per_day_usd adds up exactly and refuses once spent, until the next UTC day', async () => {
      const store = await fresh();
      const scopes = [key({ spend_per_day_usd: 1 })];
      // Ten costs of $0.10: a float sum would reach 0.9999999999999999 and admit an eleventh.
      for (let i = 0; i < 10; i++) {
        const reservation = reservationOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.1, now: t0 }));
        await store.settle(reservation, { tokens: 0, costUsd: 0.1 }, t0);
      }
      assert.deepEqual(refusalOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.000001, now: t0 })), {
        scopeId: 'key:key_2',
        limit: 'spend_per_day_usd',
        retryAfterSeconds: 11 * 3600 + 29 * 60 + 45,
        retryable: true,
        message: 'Spend limit reached for key key_2: $1.00 per UTC day. Try again in 12 h.',
      });
      reservationOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.1, now: Date.UTC(2030, 4, 15) }));
    });

    test('spend is reserved at admission: concurrent worst cases never pass the ceiling, and settle corrects them', async () => {
      const store = await fresh();
      const scopes = [account({ spend_per_day_usd: 0.03 })];
      const results = await Promise.all(Array.from({ length: 40 }, () => store.reserve({ scopes, tokens: 0, costUsd: 0.013, now: t0 })));
      const admitted = results.filter((result) => result.ok).map(reservationOf);
      assert.equal(admitted.length, 2, '$0.026 of $0.03 reserved; a third $0.013 would pass it');
      // The first cost less than its worst case: the difference is free again, the second's stays held.
      await store.settle(admitted[0]!, { tokens: 0, costUsd: 0.004 }, t0);
      reservationOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.013, now: t0 }));
      refusalOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.001, now: t0 }));
      // A request that never reached an upstream settles to nothing and holds nothing.
      await store.settle(admitted[1]!, { tokens: 0, costUsd: 0 }, t0);
      reservationOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.013, now: t0 }));
    });

    test('a flexible output cap is the room tokens_per_minute has left, reserved as tokens and spend', async () => {
      const store = await fresh();
      const scopes = [account({ tokens_per_minute: 1000, spend_per_day_usd: 1 }), key({ tokens_per_minute: 700 })];
      const flexibleOutput = { upTo: 500, usdPerToken: 10 / 1e6 };
      const first = reservationOf(await store.reserve({ scopes, tokens: 100, costUsd: 0.001, flexibleOutput, now: t0 }));
      assert.deepEqual([first.grantedOutputTokens, first.tokens, first.costMicros], [500, 600, 1000 + 5000]);
      // The key has 100 tokens left, 40 of them for this prompt: the grant shrinks to the other 60.
      const second = reservationOf(await store.reserve({ scopes, tokens: 40, costUsd: 0, flexibleOutput, now: t0 }));
      assert.deepEqual([second.grantedOutputTokens, second.tokens, second.costMicros], [60, 100, 600]);
      const refusal = refusalOf(await store.reserve({ scopes, tokens: 0, flexibleOutput, now: t0 }));
      assert.equal(refusal.limit, 'tokens_per_minute');
      assert.equal(refusal.retryable, true);
      // Settling the first with what it used gives its unused grant back.
      await store.settle(first, { tokens: 150, costUsd: 0.0015 }, t0);
      assert.equal(reservationOf(await store.reserve({ scopes, tokens: 0, flexibleOutput, now: t0 })).grantedOutputTokens, 450);
      // A prompt alone above the limit is refused for good.
      assert.equal(refusalOf(await store.reserve({ scopes, tokens: 700, flexibleOutput, now: t0 + 60_000 })).retryable, false);
    });

    test('spend_per_month_usd refuses until the next UTC month', async () => {
      const store = await fresh();
      const scopes = [key({ spend_per_month_usd: 2 })];
      const reservation = reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 }));
      await store.settle(reservation, { tokens: 0, costUsd: 2.5 }, t0 + 5000);
      const refusal = refusalOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.01, now: t0 }));
      assert.equal(refusal.limit, 'spend_per_month_usd');
      assert.equal(refusal.retryAfterSeconds, Math.ceil(msUntilNextUtcMonth(t0) / 1000));
      assert.match(refusal.message, /^Spend limit reached for key key_2: \$2\.00 per UTC month\. Try again in 18 days\.$/);
      refusalOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.01, now: t0 + dayMs }));
      reservationOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.01, now: Date.UTC(2030, 5, 1) }));
    });

    test('several scopes: a refusal by one counts against none (all-or-nothing)', async () => {
      const store = await fresh();
      const acct = account({ requests_per_minute: 10, tokens_per_minute: 1000, concurrent_requests: 10 });
      reservationOf(await store.reserve({ scopes: [acct, key({ requests_per_minute: 1 })], tokens: 100, now: t0 }));
      for (let i = 0; i < 5; i++) {
        assert.equal(refusalOf(await store.reserve({ scopes: [acct, key({ requests_per_minute: 1 })], tokens: 100, now: t0 })).scopeId, 'key:key_2');
      }
      // The account alone has exactly 9 requests, 900 tokens and 9 slots left: the refusals took none.
      for (let i = 0; i < 9; i++) reservationOf(await store.reserve({ scopes: [acct], tokens: 100, now: t0 }));
      refusalOf(await store.reserve({ scopes: [acct], tokens: 0, now: t0 }));
    });

    test('when several limits refuse, the longest wait is reported', async () => {
      const store = await fresh();
      const scopes = [account({ requests_per_minute: 1 }), key({ spend_per_day_usd: 0.5 })];
      const reservation = reservationOf(await store.reserve({ scopes, tokens: 0, now: t0 }));
      await store.settle(reservation, { tokens: 0, costUsd: 0.5 }, t0);
      const refusal = refusalOf(await store.reserve({ scopes, tokens: 0, costUsd: 0.01, now: t0 }));
      assert.equal(refusal.limit, 'spend_per_day_usd');
      assert.equal(refusal.message, 'Spend limit reached for key key_2: $0.50 per UTC day. Try again in 12 h.');
    });

    test('absent limits count nothing and refuse nothing; a limit of 0 refuses everything', async () => {
      const store = await fresh();
      for (let i = 0; i < 50; i++) reservationOf(await store.reserve({ scopes: [key({}), account({})], tokens: 1e6, now: t0 }));
      const refusal = refusalOf(await store.reserve({ scopes: [key({ requests_per_minute: 0 })], tokens: 0, now: t0 }));
      assert.equal(refusal.retryable, false);
      assert.equal(refusal.message, 'No requests allowed for key key_2: the limit is 0 requests per minute.');
    });

    test('100 concurrent reservations never admit more tokens than tokens_per_minute', async () => {
      const store = await fresh();
      const scopes = [key({ tokens_per_minute: 1000 })];
      const results = await Promise.all(Array.from({ length: 100 }, () => store.reserve({ scopes, tokens: 30, now: t0 })));
      assert.equal(results.filter((result) => result.ok).length, 33);
    });
  });
}
