import type { components } from '../../../index.js';

type UsageBucket = components['schemas']['UsageBucket'];

/** The periods the usage view offers, in days. */
export const rangeChoices = [7, 30, 90] as const;
export type RangeDays = (typeof rangeChoices)[number];

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The start of a period of `days` UTC days ending today, in Unix seconds: today counts as one, so 7 days
 * are today and the six before, which is what a 7-bar chart shows.
 */
export function rangeStart(days: RangeDays, now = Date.now()): number {
  const todayStart = Math.floor(now / dayMs) * dayMs;
  return (todayStart - (days - 1) * dayMs) / 1000;
}

/** Every UTC day (`YYYY-MM-DD`) from `from` (Unix seconds) to today, oldest first. */
export function daysSince(from: number, now = Date.now()): string[] {
  const days: string[] = [];
  for (let time = from * 1000; time <= now; time += dayMs) days.push(new Date(time).toISOString().slice(0, 10));
  return days;
}

const emptyBucket: Omit<UsageBucket, 'day' | 'model'> = {
  requests: 0,
  input_tokens: 0,
  cached_input_tokens: 0,
  cache_write_input_tokens: 0,
  cache_write_1h_input_tokens: 0,
  output_tokens: 0,
  reasoning_tokens: 0,
  image_count: 0,
  cost_usd: 0,
};

/** The report's day buckets with the days that had no requests filled in as zeros, so charts have no gaps. */
export function fillDays(buckets: UsageBucket[], days: string[]): UsageBucket[] {
  const byDay = new Map(buckets.map((bucket) => [bucket.day, bucket]));
  return days.map((day) => byDay.get(day) ?? { ...emptyBucket, day });
}

/** The sums of a report's buckets. */
export function totalOf(buckets: UsageBucket[]): Omit<UsageBucket, 'day' | 'model'> {
  return buckets.reduce(
    (sum, bucket) => ({
      requests: sum.requests + bucket.requests,
      input_tokens: sum.input_tokens + bucket.input_tokens,
      cached_input_tokens: sum.cached_input_tokens + bucket.cached_input_tokens,
      cache_write_input_tokens: sum.cache_write_input_tokens + bucket.cache_write_input_tokens,
      cache_write_1h_input_tokens: sum.cache_write_1h_input_tokens + bucket.cache_write_1h_input_tokens,
      output_tokens: sum.output_tokens + bucket.output_tokens,
      reasoning_tokens: sum.reasoning_tokens + bucket.reasoning_tokens,
      image_count: sum.image_count + bucket.image_count,
      cost_usd: sum.cost_usd + bucket.cost_usd,
    }),
    emptyBucket,
  );
}
