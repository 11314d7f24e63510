import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Usage } from '../core/internal-representation.js';
import { imagePrice, priceUsage, worstCaseRates } from './cost.js';

const closeTo = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≈ ${expected}`);
const pricing = { input_per_mtok: 2, cached_input_per_mtok: 0.5, output_per_mtok: 8, per_image: 0.04 };
const usage = (fields: Partial<Usage>): Usage => ({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, ...fields });
const costOf = (fields: Partial<Usage>, prices: Parameters<typeof priceUsage>[1], facts?: Parameters<typeof priceUsage>[2]) => priceUsage(usage(fields), prices, facts).costUsd;

test('cached input is billed at the cached price, the rest of the input at the input price', () => {
  closeTo(costOf({ inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 200 }, pricing), (600 * 2 + 400 * 0.5 + 200 * 8) / 1e6);
});

test('cached input costs the input price when no cached price is configured', () => {
  const { cached_input_per_mtok: _, ...withoutCachedPrice } = pricing;
  closeTo(costOf({ inputTokens: 1_000, cachedInputTokens: 400 }, withoutCachedPrice), (1_000 * 2) / 1e6);
});

test('a million tokens cost the per-million price', () => {
  closeTo(costOf({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, pricing), 2 + 8);
});

test('images are billed per image on top of tokens', () => {
  closeTo(costOf({}, pricing, { imageCount: 3 }), 0.12);
  closeTo(costOf({ inputTokens: 100 }, pricing, { imageCount: 2 }), 0.08 + 0.0002);
});

test('a model without pricing costs nothing', () => {
  assert.equal(costOf({ inputTokens: 1_000, outputTokens: 1_000 }, undefined, { imageCount: 4 }), 0);
});

test('more cached than total input never makes the uncached part negative', () => {
  closeTo(costOf({ inputTokens: 100, cachedInputTokens: 150 }, pricing), (150 * 0.5) / 1e6);
});

test('a service tier named in the pricing multiplies the token cost; others cost as usual', () => {
  const tiered = { ...pricing, service_tiers: { priority: 2, flex: 0.5 } };
  const used = { inputTokens: 1_000, outputTokens: 100 };
  const plain = (1_000 * 2 + 100 * 8) / 1e6;
  closeTo(costOf(used, tiered, { requestedServiceTier: 'priority' }), 2 * plain);
  closeTo(costOf(used, tiered, { requestedServiceTier: 'flex' }), 0.5 * plain);
  closeTo(costOf(used, tiered, { requestedServiceTier: 'default' }), plain);
  closeTo(costOf(used, tiered, { requestedServiceTier: 'priority', imageCount: 1 }), 2 * plain + 0.04); // images are not tiered
});

test('the tier the upstream reports is the one billed, whatever was asked for', () => {
  const tiered = { ...pricing, service_tiers: { priority: 2 } };
  // OpenAI answers `default` to a priority request it downgraded, and bills it so.
  const downgraded = priceUsage(usage({ inputTokens: 1_000, serviceTier: 'default' }), tiered, { requestedServiceTier: 'priority' });
  closeTo(downgraded.costUsd, (1_000 * 2) / 1e6);
  assert.equal(downgraded.serviceTier, 'default');
  const upgraded = priceUsage(usage({ inputTokens: 1_000, serviceTier: 'priority' }), tiered, { requestedServiceTier: 'auto' });
  closeTo(upgraded.costUsd, (2 * 1_000 * 2) / 1e6);
});

test('work the upstream reports as batch is billed at the batch multiplier and marked batch', () => {
  const priced = priceUsage(usage({ inputTokens: 1_000, outputTokens: 100, serviceTier: 'batch' }), { ...pricing, batch_multiplier: 0.5 });
  closeTo(priced.costUsd, (0.5 * (1_000 * 2 + 100 * 8)) / 1e6);
  assert.equal(priced.batch, true);
  assert.equal(priceUsage(usage({ inputTokens: 1 }), pricing).batch, false);
});

test('input above the long-context threshold bills the whole request at the long-context prices', () => {
  const long = { ...pricing, long_context: { above_input_tokens: 200_000, input_per_mtok: 4, output_per_mtok: 12 } };
  const at = priceUsage(usage({ inputTokens: 200_000, outputTokens: 1_000 }), long);
  closeTo(at.costUsd, (200_000 * 2 + 1_000 * 8) / 1e6);
  assert.equal(at.priceTierAboveTokens, 0);
  const above = priceUsage(usage({ inputTokens: 200_001, cachedInputTokens: 1, outputTokens: 1_000 }), long);
  closeTo(above.costUsd, (200_000 * 4 + 1 * 4 + 1_000 * 12) / 1e6);
  assert.equal(above.priceTierAboveTokens, 200_000);
});

test('with several prompt-size tiers, the highest threshold passed wins, in whatever order they are listed', () => {
  const tiers = { ...pricing, long_context: [{ above_input_tokens: 128_000, input_per_mtok: 5, output_per_mtok: 8 }, { above_input_tokens: 32_000, input_per_mtok: 3, output_per_mtok: 8 }] };
  const at = (inputTokens: number) => priceUsage(usage({ inputTokens }), tiers);
  closeTo(at(32_000).costUsd, (32_000 * 2) / 1e6);
  closeTo(at(32_001).costUsd, (32_001 * 3) / 1e6);
  assert.equal(at(32_001).priceTierAboveTokens, 32_000);
  closeTo(at(128_001).costUsd, (128_001 * 5) / 1e6);
  assert.equal(at(128_001).priceTierAboveTokens, 128_000);
});

test('cache writes are billed at their TTL’s price, apart from reads and plain input', () => {
  // Claude Sonnet 4.5: input $3, 5-minute writes $3.75, 1-hour writes $6, reads $0.30, output $15.
  const sonnet = { input_per_mtok: 3, cache_write_5m_per_mtok: 3.75, cache_write_1h_per_mtok: 6, cached_input_per_mtok: 0.3, output_per_mtok: 15, per_image: 0 };
  // 10 plain, 2,000 read, 3,000 written (1,000 of them to the 1-hour cache), 50 out.
  const used = { inputTokens: 5_010, cachedInputTokens: 2_000, cacheWriteInputTokens: 3_000, cacheWrite1hInputTokens: 1_000, outputTokens: 50 };
  closeTo(costOf(used, sonnet), (10 * 3 + 2_000 * 0.3 + 2_000 * 3.75 + 1_000 * 6 + 50 * 15) / 1e6);
  // Without write prices, writes cost the input price (what the gateway charged before it knew them).
  closeTo(costOf(used, { ...pricing, cached_input_per_mtok: 0.3 }), (3_010 * 2 + 2_000 * 0.3 + 50 * 8) / 1e6);
});

test('reasoning and audio tokens are billed at their own prices when the pricing has them', () => {
  const priced = { ...pricing, reasoning_per_mtok: 20, audio_input_per_mtok: 40, audio_output_per_mtok: 80 };
  const used = { inputTokens: 1_000, audioInputTokens: 300, outputTokens: 500, reasoningTokens: 200, audioOutputTokens: 100 };
  closeTo(costOf(used, priced), (700 * 2 + 300 * 40 + 200 * 8 + 200 * 20 + 100 * 80) / 1e6);
  closeTo(costOf(used, pricing), (1_000 * 2 + 500 * 8) / 1e6);
});

test('an image is priced by the first entry matching its size and quality, else per_image', () => {
  // dall-e-3: standard 1024×1024 $0.04, standard other sizes $0.08, HD 1024×1024 $0.08, HD other sizes $0.12.
  const dalle = {
    ...pricing,
    per_image: 0.08,
    image_prices: [
      { quality: 'hd', size: '1024x1024', usd: 0.08 },
      { quality: 'hd', usd: 0.12 },
      { size: '1024x1024', usd: 0.04 },
    ],
  };
  assert.equal(imagePrice(dalle, { size: '1024x1024' }), 0.04);
  assert.equal(imagePrice(dalle, { size: '1024x1024', quality: 'hd' }), 0.08);
  assert.equal(imagePrice(dalle, { size: '1792x1024', quality: 'hd' }), 0.12);
  assert.equal(imagePrice(dalle, { size: '1792x1024', quality: 'standard' }), 0.08);
  // Not read yet (an upload at admission): the dearest.
  assert.equal(imagePrice(dalle, undefined), 0.12);
  closeTo(costOf({}, dalle, { imageCount: 2, image: { size: '1024x1792', quality: 'hd' } }), 0.24);
});

test('the worst case covers every kind of token, tier and service tier the request may be billed at', () => {
  const priced = {
    ...pricing,
    cache_write_1h_per_mtok: 4,
    reasoning_per_mtok: 10,
    service_tiers: { priority: 2, flex: 0.5 },
    long_context: { above_input_tokens: 1_000, input_per_mtok: 3, output_per_mtok: 9 },
  };
  // The upstream's choice (`auto`): the dearest tier; the prompt below the threshold: base prices.
  assert.deepEqual(worstCaseRates(priced, 500, 'auto'), { input: (2 * 4) / 1e6, output: (2 * 10) / 1e6 });
  // None named: the upstream chooses too (OpenAI's and Anthropic's default is `auto`): the dearest tier.
  assert.deepEqual(worstCaseRates(priced, 500), { input: (2 * 4) / 1e6, output: (2 * 10) / 1e6 });
  // `default` named: the standard prices.
  assert.deepEqual(worstCaseRates(priced, 500, 'default'), { input: 4 / 1e6, output: 10 / 1e6 });
  // A tier named: that tier only.
  assert.deepEqual(worstCaseRates(priced, 500, 'flex'), { input: (0.5 * 4) / 1e6, output: (0.5 * 10) / 1e6 });
  // Above the threshold the long-context tier counts too (its cache writes default to its own input price).
  assert.deepEqual(worstCaseRates(priced, 1_001, 'default'), { input: 4 / 1e6, output: 10 / 1e6 });
  assert.deepEqual(worstCaseRates({ ...priced, reasoning_per_mtok: undefined, cache_write_1h_per_mtok: undefined }, 1_001, 'default'), { input: 3 / 1e6, output: 9 / 1e6 });
});
