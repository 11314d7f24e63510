// Issue 34, finding 10: options that change what a request costs. A narrowed key must be granted
// `service_tier` and Anthropic's priced betas (`cost_options`); an unrestricted key keeps using them; the
// model's pricing prices them; media named by reference reserves a worst case, not its URL's length.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { keyOfNewAccount } from './helpers/admin-api.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { sendInProtocol } from './helpers/send-in-protocol.js';
import { startUpstreamGateway, type UpstreamGateway } from './helpers/upstream-gateway.js';

const userSays = [{ role: 'user', content: 'hi' }];
const chatAnswer = { id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'hello', refusal: null }, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 1_000, completion_tokens: 100, total_tokens: 1_100 } };

const closeTo = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≈ ${expected}`);
const keyWith = (setup: UpstreamGateway, grants: Parameters<typeof keyOfNewAccount>[1]) => keyOfNewAccount(setup.gateway, grants);

describe('service_tier is a cost option', () => {
  let openai: UpstreamGateway;
  before(async () => {
    openai = await startUpstreamGateway('openai', { model: { pricing: { input_per_mtok: 1, output_per_mtok: 10, service_tiers: { priority: 2, flex: 0.5 } } } });
  });
  after(() => openai.close());

  test('a narrowed key gets 403 for service_tier priority unless granted it; auto and default need nothing', async () => {
    const narrowed = await keyWith(openai, { permissions: { capabilities: [] } });
    const refused = await sendInProtocol(openai, narrowed, 'chat', { messages: userSays, service_tier: 'priority' });
    assert.equal(refused.status, 403, refused.text);
    const { error } = JSON.parse(refused.text) as { error: { param: string; code: string } };
    assert.deepEqual([error.param, error.code], ['service_tier', 'cost_option_not_permitted']);
    const responses = await sendInProtocol(openai, narrowed, 'responses', { input: 'hi', service_tier: 'flex' });
    assert.equal(responses.status, 403, responses.text);
    assert.equal(openai.upstream.requests.length, 0);

    openai.upstream.enqueue({ json: chatAnswer });
    assert.equal((await sendInProtocol(openai, narrowed, 'chat', { messages: userSays, service_tier: 'auto' })).status, 200);
    const granted = await keyWith(openai, { permissions: { capabilities: [], cost_options: ['service_tier'] } });
    openai.upstream.enqueue({ json: chatAnswer });
    assert.equal((await sendInProtocol(openai, granted, 'chat', { messages: userSays, service_tier: 'priority' })).status, 200);
    assert.equal((openai.upstream.requests.at(-1)!.json as { service_tier?: string }).service_tier, 'priority');
  });

  test('an unrestricted key keeps using it, and the ledger prices it by the tier multiplier', async () => {
    const key = await keyWith(openai, {});
    const costs: number[] = [];
    for (const tier of [undefined, 'priority', 'flex']) {
      openai.upstream.enqueue({ json: chatAnswer });
      const sent = await sendInProtocol(openai, key, 'chat', { messages: userSays, ...(tier && { service_tier: tier }) });
      assert.equal(sent.status, 200, sent.text);
      costs.push((await ledgerRow(openai.gateway.origin, key, sent.requestId)).cost_usd);
    }
    const plain = (1_000 * 1 + 100 * 10) / 1e6;
    assert.deepEqual(costs.map((cost) => Math.round((cost / plain) * 100) / 100), [1, 2, 0.5]);
  });

  test('the reservation holds the tier’s worst case: a spend limit that admits the `default` request refuses the priority one, and one naming none', async () => {
    // 200 tokens of output at $10/M is $0.002, the prompt a little more: under $0.003 at default, over it at priority.
    const key = await keyWith(openai, { limits: { spend_per_day_usd: 0.003 } });
    const priority = await sendInProtocol(openai, key, 'chat', { messages: userSays, max_tokens: 200, service_tier: 'priority' });
    assert.equal(priority.status, 429, priority.text);
    // Naming none is OpenAI's `auto`: the project's default tier, which may be priority, is the upstream's to pick.
    const unnamed = await sendInProtocol(openai, key, 'chat', { messages: userSays, max_tokens: 200 });
    assert.equal(unnamed.status, 429, unnamed.text);
    assert.equal(openai.upstream.requests.filter((request) => (request.json as { max_tokens?: number }).max_tokens === 200).length, 0);
    openai.upstream.enqueue({ json: chatAnswer });
    assert.equal((await sendInProtocol(openai, key, 'chat', { messages: userSays, max_tokens: 200, service_tier: 'default' })).status, 200);
  });

  test('a request naming no tier that OpenAI serves at priority is billed at priority, within what was reserved', async () => {
    // The project's default tier is priority: OpenAI reports `service_tier: priority` on an answer to a body without one.
    const key = await keyWith(openai, { limits: { spend_per_day_usd: 1 } });
    openai.upstream.enqueue({ json: { ...chatAnswer, service_tier: 'priority' } });
    const sent = await sendInProtocol(openai, key, 'chat', { messages: userSays, max_tokens: 200 });
    assert.equal(sent.status, 200, sent.text);
    const row = await ledgerRow(openai.gateway.origin, key, sent.requestId);
    assert.equal(row.service_tier, 'priority');
    closeTo(row.cost_usd, (2 * (1_000 * 1 + 100 * 10)) / 1e6);
  });
});

describe('priced Anthropic betas are cost options', () => {
  let anthropic: UpstreamGateway;
  before(async () => {
    anthropic = await startUpstreamGateway('anthropic');
  });
  after(() => anthropic.close());

  const withBeta = (key: string, beta: string) =>
    sendInProtocol(anthropic, key, 'messages', { max_tokens: 16, messages: userSays }, { 'anthropic-beta': beta });

  test('the 1M-context and one-hour-cache betas are 403 for a narrowed key unless granted; other betas are not gated', async () => {
    const narrowed = await keyWith(anthropic, { permissions: { max_output_tokens: 1_000 } });
    for (const beta of ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14, extended-cache-ttl-2025-04-11']) {
      const refused = await withBeta(narrowed, beta);
      assert.equal(refused.status, 403, refused.text);
      assert.match(refused.text, /permission_error/, 'in Anthropic’s error shape');
    }
    assert.equal(anthropic.upstream.requests.length, 0);
    await withBeta(narrowed, 'interleaved-thinking-2025-05-14');
    assert.equal(anthropic.upstream.requests.length > 0, true, 'an unpriced beta goes through');

    for (const key of [await keyWith(anthropic, { permissions: { max_output_tokens: 1_000, cost_options: ['long_context'] } }), await keyWith(anthropic, {})]) {
      const from: number = anthropic.upstream.requests.length;
      await withBeta(key, 'context-1m-2025-08-07');
      assert.equal(anthropic.upstream.requests[from]?.headers['anthropic-beta'], 'context-1m-2025-08-07');
    }
  });
});

describe('media by reference reserves its worst case (2,500 tokens an item)', () => {
  test('two image URLs are more than a 3,000-token minute, though their URLs are short', async () => {
    const openai = await startUpstreamGateway('openai', { model: { capabilities: ['chat', 'vision'] } });
    try {
      const key = await keyWith(openai, { limits: { tokens_per_minute: 3_000 } });
      const image = (name: string) => ({ type: 'image_url', image_url: { url: `https://example.com/${name}.png` } });
      const sent = await sendInProtocol(openai, key, 'chat', { max_tokens: 10, messages: [{ role: 'user', content: [image('a'), image('b')] }] });
      assert.equal(sent.status, 429, sent.text);
      assert.equal(openai.upstream.requests.length, 0);
    } finally {
      await openai.close();
    }
  });
});
