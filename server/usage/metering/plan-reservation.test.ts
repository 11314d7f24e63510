import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { pricingSchema, type ModelPricing } from '../../config/config-schema.js';
import type { Usage } from '../../core/internal-representation.js';
import { priceUsage } from '../cost.js';
import { worstCaseMediaReferenceTokens } from './count-media-references.js';
import { protocolDefinition } from '../../protocols/registry.js';
import type { MeteredEndpoint, MeteredProtocol } from './metered-endpoint.js';
import { namedOutputCap, planReservation, withGrantedOutputCap, worstCaseImageOutputTokens, type ReservationPlanInput } from './plan-reservation.js';

/** A protocol's output-cap fields, as its definition declares them and the request context carries them. */
const capOf = (protocol: MeteredProtocol) => protocolDefinition(protocol).outputCap;
const endpoint = (protocol: MeteredProtocol): MeteredEndpoint => ({ protocol, outputCap: capOf(protocol), endpoint: 'POST /x', consumesTokens: true, generatesOutput: true });
const pricing = { input_per_mtok: 2, output_per_mtok: 10, per_image: 0.04 };
const closeTo = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≈ ${expected}`);
const plan = (overrides: Partial<ReservationPlanInput>) =>
  planReservation({
    endpoint: endpoint('openai-chat'),
    body: { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(400) }] },
    scopes: [{ id: 'key:k', limits: { tokens_per_minute: 10_000 } }],
    pricing,
    permittedOutputTokens: undefined,
    defaultOutputTokens: 8_192,
    maxImages: 10,
    ...overrides,
  });

test('each protocol names its output cap in its own field, in the one spelling the front door leaves', () => {
  assert.equal(namedOutputCap(capOf('openai-chat'), { max_tokens: 5 }), 5);
  assert.equal(namedOutputCap(capOf('openai-chat'), { max_completion_tokens: 6 }), 6);
  assert.equal(namedOutputCap(capOf('openai-responses'), { max_output_tokens: 7 }), 7);
  assert.equal(namedOutputCap(capOf('anthropic-messages'), { max_tokens: 8 }), 8);
  assert.equal(namedOutputCap(capOf('gemini'), { generationConfig: { maxOutputTokens: 9 } }), 9);
  // The front door has renamed snake_case already (http/one-spelling-per-field.ts): nothing reads it here.
  assert.equal(namedOutputCap(capOf('gemini'), { generation_config: { max_output_tokens: 10 } }), undefined);
  // Another protocol's field is no cap: a Responses body's max_tokens is not read as one.
  assert.equal(namedOutputCap(capOf('openai-responses'), { max_tokens: 5 }), undefined);
});

test('a named cap is reserved whole, as tokens and at the output price', () => {
  const planned = plan({ body: { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(400) }], max_tokens: 1_000 } });
  assert.equal(planned.flexibleOutput, undefined);
  const prompt = planned.tokens - 1_000;
  assert.ok(prompt >= 100, `four characters a token and more: ${prompt}`);
  assert.ok(Math.abs(planned.costUsd! - (prompt * 2 + 1_000 * 10) / 1e6) < 1e-12);
});

test('no cap: the gateway grants one only under a tokens or spend limit, within the permission and the default', () => {
  assert.deepEqual(plan({}).flexibleOutput, { upTo: 8_192, usdPerToken: 10 / 1e6 });
  assert.equal(plan({ permittedOutputTokens: 300 }).flexibleOutput?.upTo, 300);
  assert.equal(plan({ scopes: [{ id: 'key:k', limits: { spend_per_month_usd: 5 } }] }).flexibleOutput?.upTo, 8_192);
  assert.equal(plan({ scopes: [{ id: 'key:k', limits: { requests_per_minute: 5, concurrent_requests: 2 } }] }).flexibleOutput, undefined);
});

test('images reserve n of them, and an upload whose n is unread yet reserves the model maximum', () => {
  const images = plan({ endpoint: endpoint('openai-images'), body: { model: 'p', prompt: 'a cat', n: 3 } });
  assert.ok(images.tokens > 3 * worstCaseImageOutputTokens);
  assert.ok(images.costUsd! > 3 * 0.04);
  const upload = plan({ endpoint: endpoint('openai-images'), body: undefined, maxImages: 4 });
  assert.equal(upload.tokens, 4 * worstCaseImageOutputTokens);
  assert.ok(Math.abs(upload.costUsd! - (4 * 0.04 + (4 * worstCaseImageOutputTokens * 10) / 1e6)) < 1e-12);
});

test('embeddings reserve their input alone, one token per token ID, at the input price; no output is granted', () => {
  const text = plan({ endpoint: { ...endpoint('openai-embeddings'), generatesOutput: false }, body: { model: 'e', input: 'x'.repeat(400) } });
  assert.equal(text.flexibleOutput, undefined);
  assert.ok(text.tokens >= 100 && text.tokens < 120, `${text.tokens}`);
  assert.ok(Math.abs(text.costUsd! - (text.tokens * 2) / 1e6) < 1e-12);
  const ids = plan({ endpoint: { ...endpoint('openai-embeddings'), generatesOutput: false }, body: { model: 'e', input: [[1, 2, 3], Array.from({ length: 500 }, (_, index) => index)] } });
  assert.ok(ids.tokens >= 503 && ids.tokens < 520, `${ids.tokens}`);
});

test('counting tokens reserves nothing', () => {
  assert.deepEqual(plan({ endpoint: { ...endpoint('gemini'), consumesTokens: false } }), { tokens: 0 });
});

test('output reserved is the cap times the answers asked for (candidateCount)', () => {
  assert.equal(namedOutputCap(capOf('gemini'), { generationConfig: { maxOutputTokens: 1900, candidateCount: 8 } }), 15_200);
  assert.equal(namedOutputCap(capOf('gemini'), { generationConfig: { maxOutputTokens: 1900, candidateCount: 'eight' } }), 1900);
});

test('the granted cap goes in the protocol field, shared among the answers asked for', () => {
  assert.deepEqual(withGrantedOutputCap(capOf('openai-chat'), { model: 'm' }, 50), { model: 'm', max_completion_tokens: 50 });
  assert.deepEqual(withGrantedOutputCap(capOf('openai-responses'), { model: 'm' }, 50), { model: 'm', max_output_tokens: 50 });
  assert.deepEqual(withGrantedOutputCap(capOf('gemini'), { contents: [] }, 50), { contents: [], generationConfig: { maxOutputTokens: 50 } });
  assert.deepEqual(withGrantedOutputCap(capOf('gemini'), { generationConfig: { candidateCount: 4 } }, 50), { generationConfig: { candidateCount: 4, maxOutputTokens: 12 } });
});

test('an embedding reserves its prompt at the input price and no output, even under a tokens limit', () => {
  const body = { requests: [{ content: { parts: [{ text: 'x'.repeat(400) }] } }] };
  const planned = plan({ endpoint: { ...endpoint('gemini'), generatesOutput: false }, body });
  assert.equal(planned.flexibleOutput, undefined);
  assert.ok(planned.tokens >= 100, `the prompt: ${planned.tokens}`);
  assert.ok(Math.abs(planned.costUsd! - (planned.tokens * 2) / 1e6) < 1e-12);
});

test('media by reference reserves its worst case, not the length of the reference', () => {
  const withImage = (url: string) => plan({ body: { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] } }).tokens;
  assert.ok(withImage('https://example.com/a.png') >= worstCaseMediaReferenceTokens);
  assert.ok(withImage('data:image/png;base64,AAAA') < 100, 'inline data is counted as it is');
  const gemini = plan({ endpoint: endpoint('gemini'), body: { contents: [{ parts: [{ fileData: { fileUri: 'gs://b/v.mp4' } }, { fileData: { fileUri: 'gs://b/w.mp4' } }] }] } });
  assert.ok(gemini.tokens >= 2 * worstCaseMediaReferenceTokens);
  const responses = plan({ endpoint: endpoint('openai-responses'), body: { model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }, { role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] } });
  assert.ok(responses.tokens >= 2 * worstCaseMediaReferenceTokens);
});

test('a service tier and long-context prices named by the pricing are reserved at their worst case', () => {
  const tiered = { ...pricing, service_tiers: { priority: 2 } };
  const body = { model: 'm', max_tokens: 1_000, messages: [{ role: 'user', content: 'hi' }] };
  const priority = { ...body, service_tier: 'priority' };
  closeTo(plan({ pricing: tiered, body: priority }).costUsd!, 2 * plan({ pricing, body: priority }).costUsd!);
  const long = { ...pricing, long_context: { above_input_tokens: 100, input_per_mtok: 4, output_per_mtok: 20 } };
  const longBody = { ...body, messages: [{ role: 'user', content: 'x'.repeat(800) }] };
  const planned = plan({ pricing: long, body: longBody });
  closeTo(planned.costUsd!, ((planned.tokens - 1_000) * 4 + 1_000 * 20) / 1e6);
});

// Issue 39: the reservation is the worst case of every priced option, so no settlement can exceed it.

const perMillion = fc.double({ min: 0, max: 100, noNaN: true });
const tierNames = ['priority', 'flex', 'scale'] as const;
const tokenPrices = fc.record(
  {
    input_per_mtok: perMillion,
    cached_input_per_mtok: perMillion,
    cache_write_5m_per_mtok: perMillion,
    cache_write_1h_per_mtok: perMillion,
    output_per_mtok: perMillion,
    reasoning_per_mtok: perMillion,
    audio_input_per_mtok: perMillion,
    audio_output_per_mtok: perMillion,
  },
  { requiredKeys: ['input_per_mtok', 'output_per_mtok'] },
);
const sizes = ['1024x1024', '1024x1536', '1536x1024'] as const;
const qualities = ['low', 'high', 'hd', 'standard'] as const;
/** Any pricing the schema takes: each option present or not, at any price, as the config would hold it. */
const pricingArbitrary = fc
  .record(
    {
      base: tokenPrices,
      per_image: perMillion,
      image_prices: fc.array(fc.record({ size: fc.constantFrom(...sizes), quality: fc.constantFrom(...qualities), usd: perMillion }, { requiredKeys: ['usd'] }), { minLength: 1, maxLength: 4 }),
      long_context: fc.array(fc.tuple(fc.integer({ min: 1, max: 3_000 }), tokenPrices), { minLength: 1, maxLength: 3 }),
      service_tiers: fc.dictionary(fc.constantFrom(...tierNames), fc.double({ min: 0, max: 5, noNaN: true })),
      batch_multiplier: fc.double({ min: 0, max: 2, noNaN: true }),
    },
    { requiredKeys: ['base', 'per_image'] },
  )
  .map(({ base, long_context, ...rest }): ModelPricing =>
    pricingSchema.parse({ ...base, ...rest, ...(long_context && { long_context: long_context.map(([above, prices]) => ({ above_input_tokens: above, ...prices })) }) }),
  );

/** Splits `total` into parts in the proportions drawn (the parts never add up to more). */
const share = (total: number, fraction: number) => Math.floor(total * fraction);

const usageArbitrary = (maxInput: number, maxOutput: number) =>
  fc
    .record({
      input: fc.integer({ min: 0, max: maxInput }),
      output: fc.integer({ min: 0, max: maxOutput }),
      cached: fc.double({ min: 0, max: 1, noNaN: true }),
      written: fc.double({ min: 0, max: 1, noNaN: true }),
      oneHour: fc.double({ min: 0, max: 1, noNaN: true }),
      audioIn: fc.double({ min: 0, max: 1, noNaN: true }),
      reasoning: fc.double({ min: 0, max: 1, noNaN: true }),
      audioOut: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ input, output, cached, written, oneHour, audioIn, reasoning, audioOut }): Usage => {
      const cachedInputTokens = share(input, cached);
      const cacheWriteInputTokens = share(input - cachedInputTokens, written);
      const reasoningTokens = share(output, reasoning);
      return {
        inputTokens: input,
        cachedInputTokens,
        cacheWriteInputTokens,
        cacheWrite1hInputTokens: share(cacheWriteInputTokens, oneHour),
        audioInputTokens: share(input - cachedInputTokens - cacheWriteInputTokens, audioIn),
        outputTokens: output,
        reasoningTokens,
        audioOutputTokens: share(output - reasoningTokens, audioOut),
      };
    });

/**
 * What the upstream may report: any tier when the request left the choice to it (`auto`, or no tier named:
 * OpenAI then serves at the project's default tier, which may be priority), else the one asked for.
 */
const reportedTier = (requested: string | undefined) =>
  requested === 'auto' || requested === undefined
    ? fc.constantFrom(undefined, 'default', 'standard', 'batch', ...tierNames)
    : fc.constantFrom(undefined, requested);

test('the reservation is never below the settled cost, for any priced option (property)', () => {
  const requestArbitrary = fc
    .record({
      pricing: pricingArbitrary,
      promptCharacters: fc.integer({ min: 0, max: 4_000 }),
      cap: fc.integer({ min: 0, max: 5_000 }),
      requestedTier: fc.constantFrom(undefined, 'auto', 'default', ...tierNames),
    })
    .chain((request) => {
      const body = { model: 'm', max_tokens: request.cap, messages: [{ role: 'user', content: 'x'.repeat(request.promptCharacters) }], ...(request.requestedTier && { service_tier: request.requestedTier }) };
      const planned = plan({ pricing: request.pricing, body });
      // The settlement is drawn within what was reserved: no more prompt than estimated, no more output than the cap.
      const prompt = planned.tokens - request.cap;
      return fc.record({ request: fc.constant(request), planned: fc.constant(planned), usage: usageArbitrary(prompt, request.cap), tier: reportedTier(request.requestedTier) });
    });
  fc.assert(
    fc.property(requestArbitrary, ({ request, planned, usage, tier }) => {
      const settled = priceUsage({ ...usage, ...(tier && { serviceTier: tier }) }, request.pricing, { requestedServiceTier: request.requestedTier }).costUsd;
      assert.ok(settled <= planned.costUsd! * (1 + 1e-9) + 1e-15, `settled ${settled} > reserved ${planned.costUsd}`);
    }),
    { numRuns: 500 },
  );
});

test('an image reservation is never below the settled cost of the images asked for (property)', () => {
  fc.assert(
    fc.property(
      pricingArbitrary,
      fc.integer({ min: 1, max: 10 }),
      fc.option(fc.constantFrom(...sizes), { nil: undefined }),
      fc.option(fc.constantFrom(...qualities), { nil: undefined }),
      fc.boolean(),
      (pricing, n, size, quality, upload) => {
        const body = upload ? undefined : { model: 'p', prompt: 'a cat', n, ...(size && { size }), ...(quality && { quality }) };
        const planned = plan({ endpoint: endpoint('openai-images'), body, pricing, maxImages: n });
        const prompt = planned.tokens - n * worstCaseImageOutputTokens;
        const usage: Usage = { inputTokens: prompt, cachedInputTokens: 0, outputTokens: n * worstCaseImageOutputTokens, reasoningTokens: 0 };
        const settled = priceUsage(usage, pricing, { imageCount: n, image: { size, quality } }).costUsd;
        return settled <= planned.costUsd! * (1 + 1e-9) + 1e-15;
      },
    ),
    { numRuns: 300 },
  );
});
