/**
 * Which records a report covers; every field narrows it. `from` is inclusive, `to` exclusive (Unix ms).
 * Its own module because both the store (usage-store.ts) and the summaries it delegates to
 * (summarize-usage.ts) read it, and the two must not import each other.
 */
export interface UsageFilter {
  accountId?: string;
  keyId?: string;
  /** Only these keys' records (a key's subtree, for the `/v1` reports); empty matches none. */
  keyIds?: readonly string[];
  model?: string;
  from?: number;
  to?: number;
}
