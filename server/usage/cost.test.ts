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
