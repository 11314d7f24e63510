import type { ModelPricing } from '../config/config-schema.js';
import type { Usage } from '../core/types.js';

const tokensPerPricedUnit = 1_000_000;

/**
 * What a request cost in US dollars at the configured prices; 0 for a model without `pricing`.
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
): number {
  if (!pricing) return 0;
  // An upstream that reports more cached than total input tokens must not make the request cheaper than free.
  const uncachedInput = Math.max(0, usage.inputTokens - usage.cachedInputTokens);
  const cachedPrice = pricing.cached_input_per_mtok ?? pricing.input_per_mtok;
  const tokenCost =
    (uncachedInput * pricing.input_per_mtok + usage.cachedInputTokens * cachedPrice + usage.outputTokens * pricing.output_per_mtok) /
    tokensPerPricedUnit;
  return tokenCost + imageCount * pricing.per_image;
}
