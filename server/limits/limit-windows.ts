// Fixed UTC windows the limits count in. Pure functions of a millisecond timestamp, shared by every store.

const minuteMs = 60_000;

/** The fixed UTC minute `now` falls in, as a window number. */
export function minuteWindow(now: number): number {
  return Math.floor(now / minuteMs);
}

/** The UTC day of `now` as `YYYYMMDD`. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10).replaceAll('-', '');
}

/** The UTC month of `now` as `YYYYMM`. */
export function utcMonth(now: number): string {
  return utcDay(now).slice(0, 6);
}

export function msUntilNextMinute(now: number): number {
  return (minuteWindow(now) + 1) * minuteMs - now;
}

export function msUntilNextUtcDay(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) - now;
}

export function msUntilNextUtcMonth(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) - now;
}

/** Milliseconds rounded up to whole seconds, at least 1 (what `Retry-After` may say). */
export function wholeSecondsAtLeastOne(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
