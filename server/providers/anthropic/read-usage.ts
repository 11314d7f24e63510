import type { Usage } from '../../core/internal-representation.js';
import type { AnthropicUsage } from './stream-schemas.js';

/** Anthropic's token counts and tier as read so far from `message_start`, `message_delta` or a whole message. */
export interface AnthropicUsageTally {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of the cache writes, those to the 1-hour cache. */
  cacheWrite1h: number;
  output: number;
  serviceTier?: string;
}

export function emptyUsageTally(): AnthropicUsageTally {
  return { input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0 };
}

/**
 * Counts are cumulative, and `message_delta` may repeat or correct the input counts: the latest wins. The
 * pass-through reads usage without checking it first, so counts that are not numbers are passed over.
 */
export function readAnthropicUsage(into: AnthropicUsageTally, usage: AnthropicUsage | null | undefined): void {
  if (!usage) return;
  const count = (value: unknown, previous: number) => (typeof value === 'number' && Number.isFinite(value) ? value : previous);
  into.input = count(usage.input_tokens, into.input);
  into.cacheRead = count(usage.cache_read_input_tokens, into.cacheRead);
  into.cacheWrite = count(usage.cache_creation_input_tokens, into.cacheWrite);
  const byTtl = usage.cache_creation;
  if (byTtl && typeof byTtl === 'object') into.cacheWrite1h = count(byTtl.ephemeral_1h_input_tokens, into.cacheWrite1h);
  into.output = count(usage.output_tokens, into.output);
  if (typeof usage.service_tier === 'string' && usage.service_tier !== '') into.serviceTier = usage.service_tier;
}

/** The tally in the gateway's terms. */
export function toGatewayUsage(tally: AnthropicUsageTally): Usage {
  return {
    // Anthropic counts cached and cache-written prompt tokens apart from input_tokens; ours include them.
    inputTokens: tally.input + tally.cacheRead + tally.cacheWrite,
    cachedInputTokens: tally.cacheRead,
    cacheWriteInputTokens: tally.cacheWrite,
    ...(tally.cacheWrite1h > 0 && { cacheWrite1hInputTokens: tally.cacheWrite1h }),
    outputTokens: tally.output,
    // Anthropic bills thinking as output tokens without saying how many.
    reasoningTokens: 0,
    ...(tally.serviceTier !== undefined && { serviceTier: tally.serviceTier }),
  };
}
