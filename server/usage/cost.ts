import type { ModelPricing } from '../config/config-schema.js';
import type { Usage } from '../core/internal-representation.js';

const tokensPerPricedUnit = 1_000_000;

/** The service tier an upstream reports for work done through its batch interface (Anthropic's `usage.service_tier`). */
export const batchServiceTier = 'batch';

type TokenPrices = Omit<ModelPricing, 'per_image' | 'image_prices' | 'long_context' | 'service_tiers' | 'batch_multiplier'>;

/** Dollars per token of each kind, for one request. */
export interface TokenRates {
  input: number;
  cachedInput: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  output: number;
  reasoning: number;
  audioInput: number;
  audioOutput: number;
}

/** What a request's usage cost, and the facts of the price that the ledger keeps beside it. */
export interface PricedUsage {
  costUsd: number;
  /** The `above_input_tokens` of the prompt-size tier whose prices applied; 0 for the model's own prices. */
  priceTierAboveTokens: number;
  /** The service tier priced: the upstream's report, else the request's; null when neither names one. */
  serviceTier: string | null;
  /** Whether the upstream reports the work as batch-processed (priced at `batch_multiplier`). */
  batch: boolean;
}

/** What, besides its usage, a request's price depends on. */
export interface PricingFacts {
  /** Images generated, each priced by {@link imagePrice} for the request's size and quality. */
  imageCount?: number;
  image?: ImageRequest;
  /** The `service_tier` the request asked for, used when the upstream reports none. */
  requestedServiceTier?: string;
}

/** The prompt-size tiers of a pricing, lowest threshold first. */
function promptTiers(pricing: ModelPricing) {
  const long = pricing.long_context;
  const tiers = long === undefined ? [] : Array.isArray(long) ? long : [long];
  return [...tiers].sort((a, b) => a.above_input_tokens - b.above_input_tokens);
}

/** The prices of a request with this many input tokens: the highest tier whose threshold it passes, else the model's own. */
function pricesAt(pricing: ModelPricing, inputTokens: number): { prices: TokenPrices; aboveTokens: number } {
  const tier = promptTiers(pricing).findLast((candidate) => inputTokens > candidate.above_input_tokens);
  return tier ? { prices: tier, aboveTokens: tier.above_input_tokens } : { prices: pricing, aboveTokens: 0 };
}

/** Per-token rates of a set of prices, times a multiplier (service tier or batch); unpriced kinds cost what their plain kind costs. */
function ratesOf(prices: TokenPrices, multiplier: number): TokenRates {
  const perToken = (perMillion: number) => (perMillion * multiplier) / tokensPerPricedUnit;
  const input = prices.input_per_mtok;
  const output = prices.output_per_mtok;
  return {
    input: perToken(input),
    cachedInput: perToken(prices.cached_input_per_mtok ?? input),
    cacheWrite5m: perToken(prices.cache_write_5m_per_mtok ?? input),
    cacheWrite1h: perToken(prices.cache_write_1h_per_mtok ?? prices.cache_write_5m_per_mtok ?? input),
    output: perToken(output),
    reasoning: perToken(prices.reasoning_per_mtok ?? output),
    audioInput: perToken(prices.audio_input_per_mtok ?? input),
    audioOutput: perToken(prices.audio_output_per_mtok ?? output),
  };
}

/** The multiplier of the tier priced: batch when the upstream says so, else the service tier's (1 for one not named). */
function multiplierOf(pricing: ModelPricing, serviceTier: string | undefined): number {
  if (serviceTier === batchServiceTier) return pricing.batch_multiplier ?? pricing.service_tiers?.[batchServiceTier] ?? 1;
  return (serviceTier === undefined ? undefined : pricing.service_tiers?.[serviceTier]) ?? 1;
}

/** What an image request names of the images it wants; undefined for one not read yet (an upload, at admission). */
export interface ImageRequest {
  size?: string;
  quality?: string;
}

/**
 * What one generated image costs: the first `image_prices` entry whose named size and quality are the
 * request's (an entry naming neither matches any request; a request leaving out a field the entry names
 * does not match it), else `per_image`. For a request not read yet, the dearest of them all: a worst case.
 */
export function imagePrice(pricing: ModelPricing | undefined, request: ImageRequest | undefined): number {
  if (!pricing) return 0;
  const entries = pricing.image_prices ?? [];
  if (request === undefined) return Math.max(pricing.per_image, ...entries.map((entry) => entry.usd));
  const match = entries.find((entry) => (entry.size === undefined || entry.size === request.size) && (entry.quality === undefined || entry.quality === request.quality));
  return match?.usd ?? pricing.per_image;
}

/**
 * What a request cost in US dollars, priced as the provider bills it; 0 for a model without `pricing`.
 *
 * Token meanings are the normalised (OpenAI) ones: `inputTokens` includes the cached tokens (billed at the
 * cached price), the cache-written ones (at the 5-minute or 1-hour write price) and the audio ones;
 * `outputTokens` includes the reasoning tokens (at the reasoning price) and the audio ones. The prompt-size
 * tier is chosen by the whole input, as Anthropic and Google choose it. The service tier is the upstream's
 * report, else the request's.
 *
 * @example
 * priceUsage({ inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 200, reasoningTokens: 0 }, { input_per_mtok: 2, cached_input_per_mtok: 0.5, output_per_mtok: 8, per_image: 0 }).costUsd;
 * // (600 × 2 + 400 × 0.5 + 200 × 8) / 1e6 = 0.003
 */
export function priceUsage(usage: Usage, pricing: ModelPricing | undefined, facts: PricingFacts = {}): PricedUsage {
  const serviceTier = usage.serviceTier ?? facts.requestedServiceTier;
  const batch = serviceTier === batchServiceTier;
  if (!pricing) return { costUsd: 0, priceTierAboveTokens: 0, serviceTier: serviceTier ?? null, batch };
  const { prices, aboveTokens } = pricesAt(pricing, usage.inputTokens);
  const rates = ratesOf(prices, multiplierOf(pricing, serviceTier));
  // Parts are taken from the whole in a fixed order, each at most what is left, so that an upstream reporting
  // parts larger than their whole can never make a request cheaper than free nor count a token twice.
  let inputLeft = usage.inputTokens;
  const take = (count: number | undefined) => {
    const taken = Math.min(Math.max(0, count ?? 0), Math.max(0, inputLeft));
    inputLeft -= taken;
    return taken;
  };
  const cacheWrites = take(usage.cacheWriteInputTokens);
  const cacheWrites1h = Math.min(Math.max(0, usage.cacheWrite1hInputTokens ?? 0), cacheWrites);
  // Cached reads are not bounded by what is left: an upstream may report more cached than total input.
  const cachedRead = Math.max(0, usage.cachedInputTokens);
  inputLeft -= cachedRead;
  const audioIn = take(usage.audioInputTokens);
  const plainInput = Math.max(0, inputLeft);
  const reasoning = Math.min(Math.max(0, usage.reasoningTokens), Math.max(0, usage.outputTokens));
  const audioOut = Math.min(Math.max(0, usage.audioOutputTokens ?? 0), Math.max(0, usage.outputTokens - reasoning));
  const plainOutput = Math.max(0, usage.outputTokens - reasoning - audioOut);
  const tokenCost =
    plainInput * rates.input +
    cachedRead * rates.cachedInput +
    (cacheWrites - cacheWrites1h) * rates.cacheWrite5m +
    cacheWrites1h * rates.cacheWrite1h +
    audioIn * rates.audioInput +
    plainOutput * rates.output +
    reasoning * rates.reasoning +
    audioOut * rates.audioOutput;
  const images = (facts.imageCount ?? 0) === 0 ? 0 : (facts.imageCount ?? 0) * imagePrice(pricing, facts.image ?? {});
  return { costUsd: tokenCost + images, priceTierAboveTokens: aboveTokens, serviceTier: serviceTier ?? null, batch };
}

/** Dollars per prompt token and per output token at their dearest, for a reservation. */
export interface WorstCaseRates {
  input: number;
  output: number;
}

/**
 * The most a prompt token and an output token of this request can cost, so that a reservation is never below
 * its settlement: every tier up to the prompt's (a tier may be priced below the one under it), any kind of
 * token (a prompt may be all cache writes at the 1-hour price; an answer all reasoning or audio), and the
 * requested service tier, or, when the upstream chooses, the dearest tier it could report. The upstream chooses
 * for `auto` and for a request naming no tier: OpenAI's default is `auto`, which serves at the project's
 * default tier (priority, if the project is set so), and Anthropic's is `auto` too (Priority Tier capacity
 * first). Either reports the tier it used, and settlement and the invoice price that one (`priceUsage`), so
 * the reservation cannot assume the standard one.
 */
export function worstCaseRates(pricing: ModelPricing | undefined, promptTokens: number, requestedServiceTier?: string): WorstCaseRates {
  if (!pricing) return { input: 0, output: 0 };
  const upstreamChooses = requestedServiceTier === undefined || requestedServiceTier === 'auto';
  const multipliers = upstreamChooses
    ? [1, ...Object.values(pricing.service_tiers ?? {}), multiplierOf(pricing, batchServiceTier)]
    : [multiplierOf(pricing, requestedServiceTier)];
  const priceSets: TokenPrices[] = [pricing, ...promptTiers(pricing).filter((tier) => promptTokens > tier.above_input_tokens)];
  const worst: WorstCaseRates = { input: 0, output: 0 };
  for (const prices of priceSets) {
    for (const multiplier of multipliers) {
      const rates = ratesOf(prices, multiplier);
      worst.input = Math.max(worst.input, rates.input, rates.cachedInput, rates.cacheWrite5m, rates.cacheWrite1h, rates.audioInput);
      worst.output = Math.max(worst.output, rates.output, rates.reasoning, rates.audioOutput);
    }
  }
  return worst;
}
