import type { Limits } from '../access/access-types.js';
import type { LimitScope, ReserveRequest } from './limit-store.js';
import { minuteWindow, msUntilNextMinute, msUntilNextUtcDay, msUntilNextUtcMonth, utcDay, utcMonth } from './limit-windows.js';
import { usdToMicros, wholeTokens } from './limit-units.js';

/**
 * How a store counts one limit:
 * - `counter`: a number per window (requests, tokens, micro-dollars); over when used + amount > ceiling;
 *   reserve adds the amount.
 * - `lease`: a set of in-flight lease IDs; over when count + 1 > ceiling; reserve adds the lease.
 */
export type CheckKind = 'counter' | 'lease';

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
  /** What this request adds at reserve before any output is granted. */
  amount: number;
  /** What each granted output token adds on top of `amount` (1 for tokens, the output price for spend). */
  perGrantedToken: number;
  /** Whether this check's room bounds the output grant (tokens_per_minute) rather than refusing it. */
  boundsGrant: boolean;
  /** Whole milliseconds, from `now`, that the key must outlive this write. */
  ttlMs: number;
}

/** What one request asks of the limits, in stored units. */
export interface ReserveAmounts {
  /** Tokens whatever the grant: prompt estimate plus a named output cap. */
  tokens: number;
  /** Micro-dollars whatever the grant. */
  costMicros: number;
  /** Micro-dollars per granted output token (equal to the output price per million tokens in dollars). */
  microsPerGrantedToken: number;
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
export function planReserveChecks(scopes: readonly LimitScope[], amounts: ReserveAmounts, now: number, leaseTtlMs: number): LimitCheck[] {
  const minuteTtlMs = Math.ceil(msUntilNextMinute(now) + minuteMarginMs);
  const checks: LimitCheck[] = [];
  for (const { id: scopeId, limits } of scopes) {
    const add = (limit: keyof Limits, check: Omit<LimitCheck, 'scopeId' | 'limit' | 'configured' | 'ceiling'>) => {
      const configured = limits[limit];
      if (configured === undefined) return;
      const ceiling = limit === 'spend_per_day_usd' || limit === 'spend_per_month_usd' ? usdToMicros(configured) : configured;
      checks.push({ scopeId, limit, configured, ceiling, ...check });
    };
    const fixed = { perGrantedToken: 0, boundsGrant: false };
    add('requests_per_minute', { kind: 'counter', key: limitKeys.requests(scopeId, now), amount: 1, ttlMs: minuteTtlMs, ...fixed });
    add('tokens_per_minute', {
      kind: 'counter',
      key: limitKeys.tokens(scopeId, now),
      amount: amounts.tokens,
      perGrantedToken: 1,
      boundsGrant: true,
      ttlMs: minuteTtlMs,
    });
    add('concurrent_requests', { kind: 'lease', key: limitKeys.leases(scopeId), amount: 1, ttlMs: leaseTtlMs, ...fixed });
    const spend = { kind: 'counter', amount: amounts.costMicros, perGrantedToken: amounts.microsPerGrantedToken, boundsGrant: false } as const;
    add('spend_per_day_usd', { ...spend, key: limitKeys.daySpend(scopeId, now), ttlMs: dayTtlMs(now) });
    add('spend_per_month_usd', { ...spend, key: limitKeys.monthSpend(scopeId, now), ttlMs: monthTtlMs(now) });
  }
  return checks;
}

/**
 * The smallest output cap worth granting: OpenAI's Responses API refuses a `max_output_tokens` below 16,
 * and an answer cut shorter is rarely of use. A minute with less room left refuses instead.
 */
export const minimumOutputGrant = 16;

/**
 * The output cap a flexible request is granted: `upTo`, shrunk to the room every tokens_per_minute check
 * has left, but never below {@link minimumOutputGrant} (or `upTo`, if smaller): a check without that much
 * room then refuses. The Redis script repeats this and the two functions below in Lua
 * (redis-limit-scripts.ts): keep them alike.
 */
export function grantOutput(checks: readonly LimitCheck[], used: readonly number[], upTo: number): number {
  let grant = upTo;
  checks.forEach((check, i) => {
    if (check.boundsGrant) grant = Math.min(grant, Math.floor((check.ceiling - used[i]! - check.amount) / check.perGrantedToken));
  });
  return Math.max(Math.min(minimumOutputGrant, upTo), grant);
}

/** What a check adds at reserve once `grant` output tokens are granted. */
export function amountWithGrant(check: LimitCheck, grant: number): number {
  return check.amount + Math.ceil(grant * check.perGrantedToken);
}

/** The admission rule. */
export function isOverLimit(check: LimitCheck, used: number, grant: number): boolean {
  return used + amountWithGrant(check, grant) > check.ceiling;
}

/** A reserve request in stored units: whole tokens, and micro-dollars rounded up (a reservation errs high). */
export function reserveAmountsOf(request: Pick<ReserveRequest, 'tokens' | 'costUsd' | 'flexibleOutput'>): ReserveAmounts {
  return {
    tokens: wholeTokens(request.tokens),
    costMicros: microsRoundedUp(request.costUsd ?? 0),
    microsPerGrantedToken: request.flexibleOutput ? Math.max(0, request.flexibleOutput.usdPerToken * 1_000_000) : 0,
  };
}

/** What an admitted request holds, for its reservation, once `grant` output tokens are granted. */
export function reservedTotals(amounts: ReserveAmounts, grant: number): { tokens: number; costMicros: number } {
  return { tokens: amounts.tokens + grant, costMicros: amounts.costMicros + Math.ceil(grant * amounts.microsPerGrantedToken) };
}

function microsRoundedUp(usd: number): number {
  return Number.isFinite(usd) && usd > 0 ? Math.ceil(usd * 1_000_000 - 1e-6) : 0;
}
