/** Display formats. Dates show in the reader's time zone; usage days are UTC, as the gateway groups them. */

const integer = new Intl.NumberFormat('en-US');
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const time = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function formatInteger(value: number): string {
  return integer.format(value);
}

/** Unix seconds (keys, accounts) as a local date and time. */
export function formatSeconds(unixSeconds: number): string {
  return dateTime.format(new Date(unixSeconds * 1000));
}

/** Unix milliseconds (usage records) as a local time with seconds. */
export function formatMilliseconds(unixMilliseconds: number): string {
  return time.format(new Date(unixMilliseconds));
}

/**
 * US dollars with enough digits for per-request costs, which are often fractions of a cent:
 * `$12.50`, `$0.0042`, `$0`.
 */
export function formatUsd(value: number): string {
  if (value === 0) return '$0';
  const digits = Math.abs(value) >= 0.1 ? 2 : Math.min(8, Math.max(2, 1 - Math.floor(Math.log10(Math.abs(value))) + 1));
  return `${value < 0 ? '-' : ''}$${Math.abs(value).toFixed(digits).replace(/(\.\d\d\d*?)0+$/, '$1')}`;
}

/** A latency in ms, switching to seconds past one. */
export function formatLatency(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

/** `2026-03-04` → `Mar 4`, for chart axes (read as UTC, since that is the day the gateway counted in). */
export function formatDayLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** A date for file names: `2026-03-04`. */
export function isoDate(date = new Date()): string {
  return date.toISOString().slice(0, 10);
}
