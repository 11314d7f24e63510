// The units counters are kept in. Both are integers, so Redis INCRBY and JS sums agree exactly.

/**
 * US dollars as whole micro-dollars. Spend is added up as integers so that thousands of small costs never
 * drift the way float sums do (0.1 + 0.2 !== 0.3).
 */
export function usdToMicros(usd: number): number {
  return Number.isFinite(usd) ? Math.round(usd * 1_000_000) : 0;
}

/** Token counts are whole and never negative, whatever a caller's estimate or an upstream's usage says. */
export function wholeTokens(count: number): number {
  return Number.isFinite(count) ? Math.max(0, Math.ceil(count)) : 0;
}
