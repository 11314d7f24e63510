import assert from 'node:assert/strict';
import { test } from 'node:test';
import { costOf } from './cost.js';

const closeTo = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≈ ${expected}`);
const pricing = { input_per_mtok: 2, cached_input_per_mtok: 0.5, output_per_mtok: 8, per_image: 0.04 };

test('cached input is billed at the cached price, the rest of the input at the input price', () => {
  closeTo(costOf({ inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 200 }, pricing), (600 * 2 + 400 * 0.5 + 200 * 8) / 1e6);
});

test('cached input costs the input price when no cached price is configured', () => {
  const { cached_input_per_mtok: _, ...withoutCachedPrice } = pricing;
  closeTo(costOf({ inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 0 }, withoutCachedPrice), (1_000 * 2) / 1e6);
});

test('a million tokens cost the per-million price', () => {
  closeTo(costOf({ inputTokens: 1_000_000, cachedInputTokens: 0, outputTokens: 1_000_000 }, pricing), 2 + 8);
});

test('images are billed per image on top of tokens', () => {
  closeTo(costOf({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 }, pricing, 3), 0.12);
  closeTo(costOf({ inputTokens: 100, cachedInputTokens: 0, outputTokens: 0 }, pricing, 2), 0.08 + 0.0002);
});

test('a model without pricing costs nothing', () => {
  assert.equal(costOf({ inputTokens: 1_000, cachedInputTokens: 0, outputTokens: 1_000 }, undefined, 4), 0);
});

test('more cached than total input never makes the uncached part negative', () => {
  closeTo(costOf({ inputTokens: 100, cachedInputTokens: 150, outputTokens: 0 }, pricing), (150 * 0.5) / 1e6);
});

test('a requested service tier named in the pricing multiplies the token cost; others cost as usual', () => {
  const tiered = { ...pricing, service_tiers: { priority: 2, flex: 0.5 } };
  const usage = { inputTokens: 1_000, cachedInputTokens: 0, outputTokens: 100 };
  const plain = (1_000 * 2 + 100 * 8) / 1e6;
  closeTo(costOf(usage, tiered, 0, 'priority'), 2 * plain);
  closeTo(costOf(usage, tiered, 0, 'flex'), 0.5 * plain);
  closeTo(costOf(usage, tiered, 0, 'default'), plain);
  closeTo(costOf(usage, tiered, 1, 'priority'), 2 * plain + 0.04); // images are not tiered
});

test('input above the long-context threshold bills the whole request at the long-context prices', () => {
  const long = { ...pricing, long_context: { above_input_tokens: 200_000, input_per_mtok: 4, output_per_mtok: 12 } };
  closeTo(costOf({ inputTokens: 200_000, cachedInputTokens: 0, outputTokens: 1_000 }, long), (200_000 * 2 + 1_000 * 8) / 1e6);
  closeTo(costOf({ inputTokens: 200_001, cachedInputTokens: 1, outputTokens: 1_000 }, long), (200_000 * 4 + 1 * 4 + 1_000 * 12) / 1e6);
});
