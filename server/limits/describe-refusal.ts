import type { Limits } from '../access/access-types.js';
import type { LimitRefusal } from './limit-store.js';
import { msUntilNextMinute, msUntilNextUtcDay, msUntilNextUtcMonth, wholeSecondsAtLeastOne } from './limit-windows.js';
import type { LimitCheck } from './plan-reserve-checks.js';

/**
 * The refusal for a check that failed with `used` already counted, when the request would have added
 * `amount`, in words a client can act on.
 */
export function describeRefusal(check: LimitCheck, used: number, now: number, amount: number): LimitRefusal {
  const who = scopeName(check.scopeId);
  const limit = describeLimit(check.limit, check.configured);
  const retryAfterSeconds = wholeSecondsAtLeastOne(msUntilRoom(check.limit, now));
  const refusal = { scopeId: check.scopeId, limit: check.limit, retryAfterSeconds };
  if (check.ceiling <= 0) {
    return { ...refusal, retryable: false, message: `No requests allowed for ${who}: the limit is ${limit}.` };
  }
  if (check.limit === 'tokens_per_minute' && amount > check.ceiling) {
    return {
      ...refusal,
      retryable: false,
      message: `Request too large for ${who}: it needs ${amount} tokens but the limit is ${limit}. Ask for fewer tokens.`,
    };
  }
  const spend = check.limit === 'spend_per_day_usd' || check.limit === 'spend_per_month_usd';
  if (spend && amount > check.ceiling) {
    return {
      ...refusal,
      retryable: false,
      message: `Request too expensive for ${who}: at most it could cost ${formatUsd(amount / 1_000_000)} but the limit is ${limit}. Ask for fewer output tokens (or images).`,
    };
  }
  const reached = check.limit === 'concurrent_requests' ? 'Concurrency limit' : spend ? 'Spend limit' : 'Rate limit';
  return { ...refusal, retryable: true, message: `${reached} reached for ${who}: ${limit}. Try again in ${formatWait(retryAfterSeconds)}.` };
}

/**
 * The refusal to report when several limits refuse: one that waiting cannot cure first, then the longest
 * wait, so a client told to retry is not refused again by another limit. Ties keep check order.
 */
export function pickRefusal(refusals: readonly LimitRefusal[]): LimitRefusal | undefined {
  return refusals.reduce<LimitRefusal | undefined>((worst, next) => {
    if (!worst) return next;
    if (worst.retryable !== next.retryable) return worst.retryable ? next : worst;
    return next.retryAfterSeconds > worst.retryAfterSeconds ? next : worst;
  }, undefined);
}

/** `key:key_2` → `key key_2`, `account:acct_1` → `account acct_1`. */
function scopeName(scopeId: string): string {
  return scopeId.replace(':', ' ');
}

function describeLimit(limit: keyof Limits, value: number): string {
  switch (limit) {
    case 'requests_per_minute':
      return `${value} requests per minute`;
    case 'tokens_per_minute':
      return `${value} tokens per minute`;
    case 'concurrent_requests':
      return `${value} requests at a time`;
    case 'spend_per_day_usd':
      return `${formatUsd(value)} per UTC day`;
    case 'spend_per_month_usd':
      return `${formatUsd(value)} per UTC month`;
  }
}

function msUntilRoom(limit: keyof Limits, now: number): number {
  switch (limit) {
    case 'requests_per_minute':
    case 'tokens_per_minute':
      return msUntilNextMinute(now);
    case 'concurrent_requests':
      return 1000; // a slot frees whenever a request ends: no better guess than "soon"
    case 'spend_per_day_usd':
      return msUntilNextUtcDay(now);
    case 'spend_per_month_usd':
      return msUntilNextUtcMonth(now);
  }
}

/** `$5.00`, `$0.50`, and `$0.005` (cents when they suffice, every digit otherwise). */
function formatUsd(usd: number): string {
  const wholeCents = Math.abs(usd * 100 - Math.round(usd * 100)) < 1e-9;
  return `$${wholeCents ? usd.toFixed(2) : String(usd)}`;
}

/** `45 s`, `12 min`, `7 h`, `3 days`: precise while it matters, readable when it is long. */
export function formatWait(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.ceil(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.ceil(seconds / 3600)} h`;
  return `${Math.ceil(seconds / 86400)} days`;
}
