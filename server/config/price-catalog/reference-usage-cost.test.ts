// Issue 39, point 4, for the providers without a recorded answer: a usage as each provider's API reference
// shapes it, read by the gateway's own reader for that provider, priced at the built-in catalog's entry, against
// the cost worked out by hand from the published prices (catalog/models/*.yaml names each page).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { readChatUsage } from '../../providers/openai/convert-stream.js';
import { readConverseUsage } from '../../providers/bedrock/convert-stream.js';
import { readGeminiUsage } from '../../providers/gemini/read-usage.js';
import { emptyUsageTally, readAnthropicUsage, toGatewayUsage } from '../../providers/anthropic/read-usage.js';
import type { ProviderType } from '../../providers/registry.js';
import { priceUsage } from '../../usage/cost.js';
import { loadPriceCatalog, type PriceCatalog } from './price-catalog.js';

const closeTo = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≈ ${expected}`);
let catalog: PriceCatalog;
before(async () => {
  catalog = await loadPriceCatalog();
});
const pricingOf = (type: ProviderType, model: string) => {
  const entry = catalog.find(type, model);
  assert.ok(entry, `${type} ${model} in the catalog`);
  return entry.pricing;
};

test('Bedrock: a Converse `metadata.usage` with cache reads and writes, Claude Sonnet 4.5 by its global profile', () => {
  // https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html
  const usage = readConverseUsage({ inputTokens: 500, outputTokens: 200, cacheReadInputTokens: 10_000, cacheWriteInputTokens: 4_000 });
  const cost = priceUsage(usage, pricingOf('bedrock', 'global.anthropic.claude-sonnet-4-5-20250929-v1:0')).costUsd;
  // $3 input, $0.30 cache reads, $3.75 (5-minute) cache writes, $15 output per million tokens: Anthropic's own
  // prices (platform.claude.com/docs/zh-CN/about-claude/pricing, read 2026-11-27); Bedrock's page is UNVERIFIED.
  closeTo(cost, (500 * 3 + 10_000 * 0.3 + 4_000 * 3.75 + 200 * 15) / 1e6);
});

test('Bedrock: Amazon Nova Lite, plain tokens', () => {
  const usage = readConverseUsage({ inputTokens: 1_000, outputTokens: 1_000 });
  // $0.06 input, $0.24 output per million: UNVERIFIED (no stored copy of aws.amazon.com/bedrock/pricing).
  closeTo(priceUsage(usage, pricingOf('bedrock', 'amazon.nova-lite-v1:0')).costUsd, (1_000 * 0.06 + 1_000 * 0.24) / 1e6);
});

test('Vertex: Gemini 2.5 Pro `usageMetadata` with cached content and thoughts, either side of 200k prompt tokens', () => {
  // https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerateContentResponse#UsageMetadata
  const pricing = pricingOf('vertex', 'gemini-2.5-pro');
  const below = readGeminiUsage({ promptTokenCount: 150_000, cachedContentTokenCount: 100_000, candidatesTokenCount: 1_000, thoughtsTokenCount: 3_000 });
  // Up to 200k: $1.25 input, $0.125 cached, $10 output (thinking included). UNVERIFIED: no stored copy of
  // cloud.google.com/vertex-ai/generative-ai/pricing (catalog/models/vertex.yaml).
  closeTo(priceUsage(below, pricing).costUsd, (50_000 * 1.25 + 100_000 * 0.125 + 4_000 * 10) / 1e6);
  const above = readGeminiUsage({ promptTokenCount: 250_000, cachedContentTokenCount: 100_000, candidatesTokenCount: 1_000, thoughtsTokenCount: 3_000 });
  // Above 200k: $2.50 input, $0.25 cached, $15 output, for the whole request.
  closeTo(priceUsage(above, pricing).costUsd, (150_000 * 2.5 + 100_000 * 0.25 + 4_000 * 15) / 1e6);
});

test('Vertex: Claude’s usage with a 1-hour cache write, as Anthropic shapes it', () => {
  const tally = emptyUsageTally();
  readAnthropicUsage(tally, { input_tokens: 20, cache_creation_input_tokens: 5_000, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 5_000 }, cache_read_input_tokens: 0, output_tokens: 100 });
  const cost = priceUsage(toGatewayUsage(tally), pricingOf('vertex', 'claude-sonnet-4-5@20250929')).costUsd;
  // $3 input, $6 1-hour cache writes, $15 output: platform.claude.com/docs/zh-CN/about-claude/pricing (2026-11-27).
  closeTo(cost, (20 * 3 + 5_000 * 6 + 100 * 15) / 1e6);
});

test('Gemini API: 2.5 Flash with audio in the prompt, audio at its own input price', () => {
  // promptTokensDetails splits the prompt by modality (ai.google.dev/api/generate-content#UsageMetadata).
  const usage = readGeminiUsage({
    promptTokenCount: 1_500,
    candidatesTokenCount: 200,
    promptTokensDetails: [
      { modality: 'TEXT', tokenCount: 500 },
      { modality: 'AUDIO', tokenCount: 1_000 },
    ],
  });
  // $0.30 text input, $1.00 audio input, $2.50 output per million tokens: UNVERIFIED (catalog/models/gemini.yaml).
  closeTo(priceUsage(usage, pricingOf('gemini', 'gemini-2.5-flash')).costUsd, (500 * 0.3 + 1_000 * 1 + 200 * 2.5) / 1e6);
});

test('Azure OpenAI: a chat `usage` with cached tokens on a gpt-4.1 deployment named after its model', () => {
  // https://learn.microsoft.com/azure/ai-foundry/openai/reference (CompletionUsage)
  const usage = readChatUsage({ prompt_tokens: 3_000, completion_tokens: 400, prompt_tokens_details: { cached_tokens: 2_048 } });
  // $2 input, $0.50 cached, $8 output: UNVERIFIED (no stored copy of Azure's pricing page).
  closeTo(priceUsage(usage, pricingOf('azure-openai', 'gpt-4.1')).costUsd, (952 * 2 + 2_048 * 0.5 + 400 * 8) / 1e6);
});

test('OpenAI: gpt-5-mini at the priority tier OpenAI reports, 1.8 times the standard prices', () => {
  const usage = readChatUsage({ prompt_tokens: 1_000, completion_tokens: 500, completion_tokens_details: { reasoning_tokens: 300 } }, 'priority');
  // Priority: $0.45 input, $3.60 output per million (openai.com/api-priority-processing, read 2026-11-27).
  closeTo(priceUsage(usage, pricingOf('openai', 'gpt-5-mini')).costUsd, (1_000 * 0.45 + 500 * 3.6) / 1e6);
});
