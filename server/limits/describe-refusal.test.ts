import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeRefusal, formatWait, pickRefusal } from './describe-refusal.js';
import type { LimitRefusal } from './limit-store.js';
import { planReserveChecks } from './plan-reserve-checks.js';

const t0 = Date.UTC(2030, 4, 14, 12, 30, 15);

test('messages name the scope and the limit, with dollars as configured', () => {
  const amounts = { tokens: 0, costMicros: 100, microsPerGrantedToken: 0 };
  const [check] = planReserveChecks([{ id: 'account:acct_1', limits: { spend_per_day_usd: 0.005 } }], amounts, t0, 60_000);
  assert.equal(describeRefusal(check!, 5000, t0, 100).message, 'Spend limit reached for account acct_1: $0.005 per UTC day. Try again in 12 h.');
  const [unnamed] = planReserveChecks([{ id: 'global', limits: { requests_per_minute: 60 } }], amounts, t0, 60_000);
  assert.equal(describeRefusal(unnamed!, 60, t0, 1).message, 'Rate limit reached for global: 60 requests per minute. Try again in 45 s.');
});

test('a request whose worst case alone exceeds a limit is told so, and that waiting will not help', () => {
  const amounts = { tokens: 0, costMicros: 12_500, microsPerGrantedToken: 0 };
  const [check] = planReserveChecks([{ id: 'key:key_2', limits: { spend_per_day_usd: 0.01 } }], amounts, t0, 60_000);
  const refusal = describeRefusal(check!, 0, t0, 12_500);
  assert.equal(refusal.retryable, false);
  assert.equal(
    refusal.message,
    'Request too expensive for key key_2: at most it could cost $0.0125 but the limit is $0.01 per UTC day. Ask for fewer output tokens (or images).',
  );
});

test('waits read well at every length', () => {
  assert.deepEqual([1, 119, 120, 7199, 7200, 172_799, 172_800].map(formatWait), ['1 s', '119 s', '2 min', '120 min', '2 h', '48 h', '2 days']);
});

test('the reported refusal is one waiting cannot cure, else the longest wait, else the first', () => {
  const refusal = (limit: LimitRefusal['limit'], retryAfterSeconds: number, retryable = true): LimitRefusal => ({
    scopeId: 'key:k',
    limit,
    retryAfterSeconds,
    retryable,
    message: '',
  });
  assert.equal(pickRefusal([]), undefined);
  assert.equal(pickRefusal([refusal('requests_per_minute', 5), refusal('spend_per_day_usd', 900)])?.limit, 'spend_per_day_usd');
  assert.equal(pickRefusal([refusal('spend_per_day_usd', 900), refusal('tokens_per_minute', 5, false)])?.limit, 'tokens_per_minute');
  assert.equal(pickRefusal([refusal('requests_per_minute', 5), refusal('tokens_per_minute', 5)])?.limit, 'requests_per_minute');
});
