import type { Limits } from '../access/access-types.js';
import type { LimitScope } from './limit-store.js';
import { minuteWindow, msUntilNextMinute, msUntilNextUtcDay, msUntilNextUtcMonth, utcDay, utcMonth } from './limit-windows.js';
import { usdToMicros } from './limit-units.js';

/**
 * How a store counts one limit:
 * - `counter`: a number per window; over when used + amount > ceiling; reserve adds `amount`.
 * - `lease`: a set of in-flight lease IDs; over when count + 1 > ceiling; reserve adds the lease.
 * - `total`: spend so far; over when used >= ceiling (the cost is only known at settle); reserve adds nothing.
 */
export type CheckKind = 'counter' | 'lease' | 'total';

/** One limit of one scope, in store-neutral terms. Both stores evaluate the same list. */
export interface LimitCheck {
  scopeId: string;
  limit: keyof Limits;
  /** The value as configured (requests, tokens, US dollars), for messages. */
  configured: number;
  kind: CheckKind;
  /** Store-neutral key; a store may prefix it. */
  key: string;
  /** The limit in the stored unit (requests, tokens, leases, micro-dollars). */
  ceiling: number;
  /** What this request adds at reserve. */
  amount: number;
  /** Whole milliseconds, from `now`, that the key must outlive this write. */
  ttlMs: number;
}

/** Extra life for window keys, so instances whose clocks differ a little still find them. */
const keyMarginMs = 60 * 60_000;
/** Minute keys only matter during their minute; a minute past it covers clock skew and late settles. */
const minuteMarginMs = 60_000;

/** Store-neutral keys of a scope's windows. Scope IDs come last because they may contain colons. */
export const limitKeys = {
  requests: (scopeId: string, now: number) => `rpm:${minuteWindow(now)}:${scopeId}`,
  tokens: (scopeId: string, now: number) => `tpm:${minuteWindow(now)}:${scopeId}`,
  leases: (scopeId: string) => `leases:${scopeId}`,
  daySpend: (scopeId: string, now: number) => `spend-day:${utcDay(now)}:${scopeId}`,
  monthSpend: (scopeId: string, now: number) => `spend-month:${utcMonth(now)}:${scopeId}`,
};

export function dayTtlMs(now: number): number {
  return Math.ceil(msUntilNextUtcDay(now) + keyMarginMs);
}

export function monthTtlMs(now: number): number {
  return Math.ceil(msUntilNextUtcMonth(now) + keyMarginMs);
}

/**
 * Every check a reservation must pass, in a fixed order: scopes as given, then requests, tokens,
 * concurrency, day spend, month spend. Absent limits produce no check, so nothing is counted for them.
 */
export function planReserveChecks(scopes: readonly LimitScope[], tokens: number, now: number, leaseTtlMs: number): LimitCheck[] {
  const minuteTtlMs = Math.ceil(msUntilNextMinute(now) + minuteMarginMs);
  const checks: LimitCheck[] = [];
  for (const { id: scopeId, limits } of scopes) {
    const add = (limit: keyof Limits, check: Omit<LimitCheck, 'scopeId' | 'limit' | 'configured'>) => {
      const configured = limits[limit];
      if (configured !== undefined) checks.push({ scopeId, limit, configured, ...check });
    };
    const ceilingOf = (limit: keyof Limits) => limits[limit] ?? 0;
    add('requests_per_minute', {
      kind: 'counter',
      key: limitKeys.requests(scopeId, now),
      ceiling: ceilingOf('requests_per_minute'),
      amount: 1,
      ttlMs: minuteTtlMs,
    });
    add('tokens_per_minute', {
      kind: 'counter',
      key: limitKeys.tokens(scopeId, now),
      ceiling: ceilingOf('tokens_per_minute'),
      amount: tokens,
      ttlMs: minuteTtlMs,
    });
    add('concurrent_requests', {
      kind: 'lease',
      key: limitKeys.leases(scopeId),
      ceiling: ceilingOf('concurrent_requests'),
      amount: 1,
      ttlMs: leaseTtlMs,
    });
    add('spend_per_day_usd', {
      kind: 'total',
      key: limitKeys.daySpend(scopeId, now),
      ceiling: usdToMicros(ceilingOf('spend_per_day_usd')),
      amount: 0,
      ttlMs: dayTtlMs(now),
    });
    add('spend_per_month_usd', {
      kind: 'total',
      key: limitKeys.monthSpend(scopeId, now),
      ceiling: usdToMicros(ceilingOf('spend_per_month_usd')),
      amount: 0,
      ttlMs: monthTtlMs(now),
    });
  }
  return checks;
}

/** The admission rule; the Redis script repeats it in Lua (redis-limit-scripts.ts), keep them alike. */
export function isOverLimit(check: LimitCheck, used: number): boolean {
  return check.kind === 'total' ? used >= check.ceiling : used + check.amount > check.ceiling;
}
