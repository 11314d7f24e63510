import type { ModelPricing } from '../config/config-schema.js';
import type { Usage } from '../core/internal-representation.js';

const tokensPerPricedUnit = 1_000_000;

/** Dollars per token of each kind, for one request. */
export interface TokenRates {
  input: number;
  cachedInput: number;
  output: number;
}

/**
 * What each token of a request costs: the model's prices, or its `long_context` prices when the input is
 * above their threshold, times the multiplier of the `service_tier` the request asked for (1 for a tier
 * the pricing does not name). The reservation (metering/plan-reservation.ts) and settlement both price
 * through here, so a worst case and its settlement can never be priced apart.
 */
export function tokenRates(pricing: ModelPricing | undefined, inputTokens: number, serviceTier?: string): TokenRates {
  if (!pricing) return { input: 0, cachedInput: 0, output: 0 };
  const long = pricing.long_context;
  const prices = long && inputTokens > long.above_input_tokens ? long : pricing;
  const tier = (serviceTier === undefined ? undefined : pricing.service_tiers?.[serviceTier]) ?? 1;
  const perToken = (perMillion: number) => (perMillion * tier) / tokensPerPricedUnit;
  return {
    input: perToken(prices.input_per_mtok),
    cachedInput: perToken(prices.cached_input_per_mtok ?? prices.input_per_mtok),
    output: perToken(prices.output_per_mtok),
  };
}

/**
 * What a request cost in US dollars at the configured prices ({@link tokenRates}); 0 for a model without `pricing`.
 *
 * Token meanings are the normalised (OpenAI) ones: `inputTokens` includes the cached tokens, which are billed
 * at `cached_input_per_mtok` (the input price when unset) instead of the input price; `outputTokens` includes
 * the reasoning tokens, which are billed as output. Anthropic's cache writes are plain input here: the
 * config has no price for them.
 *
 * @example
 * costOf({ inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 200 }, { input_per_mtok: 2, cached_input_per_mtok: 0.5, output_per_mtok: 8, per_image: 0 }, 0);
 * // (600 × 2 + 400 × 0.5 + 200 × 8) / 1e6 = 0.003
 */
export function costOf(
  usage: Pick<Usage, 'inputTokens' | 'cachedInputTokens' | 'outputTokens'>,
  pricing: ModelPricing | undefined,
  imageCount = 0,
  serviceTier?: string,
): number {
  if (!pricing) return 0;
  const rates = tokenRates(pricing, usage.inputTokens, serviceTier);
  // An upstream that reports more cached than total input tokens must not make the request cheaper than free.
  const uncachedInput = Math.max(0, usage.inputTokens - usage.cachedInputTokens);
  const tokenCost = uncachedInput * rates.input + usage.cachedInputTokens * rates.cachedInput + usage.outputTokens * rates.output;
  return tokenCost + imageCount * pricing.per_image;
}
