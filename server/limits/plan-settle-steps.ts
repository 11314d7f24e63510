import type { Reservation } from './limit-store.js';
import { usdToMicros, wholeTokens } from './limit-units.js';
import { dayTtlMs, limitKeys, monthTtlMs } from './plan-reserve-checks.js';

/**
 * One write of a settle, in store-neutral terms:
 * - `release`: remove the reservation's lease from a concurrency set.
 * - `adjust`: add `delta` to a minute's token counter if it still exists, never going below 0.
 * - `add`: add `amount` (negative to give back) to a spend total, creating it with `ttlMs` if needed, never
 *   going below 0.
 */
export type SettleStep =
  | { kind: 'release'; key: string }
  | { kind: 'adjust'; key: string; delta: number }
  | { kind: 'add'; key: string; amount: number; ttlMs: number };

/**
 * The writes that finish a reservation: each counter moves from what was reserved to what was used. They
 * touch only limits the scope had when it was reserved, and the minute, day and month in which it was
 * reserved.
 */
export function planSettleSteps(reservation: Reservation, actual: { tokens: number; costUsd: number }): SettleStep[] {
  const { reservedAt } = reservation;
  const tokenDelta = wholeTokens(actual.tokens) - reservation.tokens;
  const costDelta = Math.max(0, usdToMicros(actual.costUsd)) - reservation.costMicros;
  const steps: SettleStep[] = [];
  for (const { id, limits } of reservation.scopes) {
    if (limits.concurrent_requests !== undefined) steps.push({ kind: 'release', key: limitKeys.leases(id) });
    if (limits.tokens_per_minute !== undefined && tokenDelta !== 0) {
      steps.push({ kind: 'adjust', key: limitKeys.tokens(id, reservedAt), delta: tokenDelta });
    }
    if (costDelta === 0) continue;
    if (limits.spend_per_day_usd !== undefined) {
      steps.push({ kind: 'add', key: limitKeys.daySpend(id, reservedAt), amount: costDelta, ttlMs: dayTtlMs(reservedAt) });
    }
    if (limits.spend_per_month_usd !== undefined) {
      steps.push({ kind: 'add', key: limitKeys.monthSpend(id, reservedAt), amount: costDelta, ttlMs: monthTtlMs(reservedAt) });
    }
  }
  return steps;
}

