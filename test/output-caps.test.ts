// A key's max_output_tokens and image_sizes hold when the request leaves them out (issue 23: a key capped
// at 50 tokens sending no cap got 603 from the built-in model and Anthropic got max_tokens 4096; with a cap
// of 100 and reasoning_effort high, Anthropic got max_tokens 20480; a key allowed only 256x256 images got a
// 1024x1024 one by leaving out `size`).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import sharp from 'sharp';
import type { ProviderType } from '../server/config/config-schema.js';
import { adminApi, keyOfNewAccount } from './helpers/admin-api.js';
import { sendInProtocol } from './helpers/send-in-protocol.js';
import { startGateway, testConfig } from './helpers/start-gateway.js';
import { startUpstreamGateway, type UpstreamGateway } from './helpers/upstream-gateway.js';

const reasoningModel = { capabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema', 'reasoning'] };

async function cappedClient(gateway: UpstreamGateway['gateway'], permissions: Record<string, unknown>): Promise<{ key: string; openai: OpenAI }> {
  const admin = adminApi(gateway);
  const account = await admin.createAccount({ name: 'capped', permissions });
  const key = (await admin.createKey(account.id, { name: 'k' })).key;
  return { key, openai: new OpenAI({ apiKey: key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 }) };
}

/** What the upstream was asked for, after one chat completion that names no cap. */
async function upstreamBodyAfterChat(type: ProviderType, permissions: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const setup = await startUpstreamGateway(type, { model: reasoningModel });
  try {
    const { openai } = await cappedClient(setup.gateway, permissions);
    setup.upstream.enqueue({ status: 500, json: { error: { message: 'enough' } } }, { status: 500, json: { error: { message: 'enough' } } });
    await openai.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], ...extra } as never).catch(() => undefined);
    return setup.upstream.requests[0]!.json as Record<string, unknown>;
  } finally {
    await setup.close();
  }
}

describe('max_output_tokens holds when the request names no cap', () => {
  test('the built-in model stops at the cap', async () => {
    const gateway = await startGateway();
    try {
      const { openai } = await cappedClient(gateway, { max_output_tokens: 50 });
      const long = Array.from({ length: 300 }, (_, index) => `word${index}`).join(' ');
      const completion = await openai.chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content: long }] });
      assert.ok(completion.usage!.completion_tokens <= 50, `${completion.usage!.completion_tokens} tokens`);
      assert.equal(completion.choices[0]!.finish_reason, 'length');
      const streamed = await openai.chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content: long }], stream: true, stream_options: { include_usage: true } });
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of streamed) usage = chunk.usage ?? usage;
      assert.ok(usage!.completion_tokens <= 50);
    } finally {
      await gateway.close();
    }
  });

  test('each upstream gets the cap in its own field', async () => {
    assert.equal((await upstreamBodyAfterChat('openai', { max_output_tokens: 50 })).max_completion_tokens, 50);
    assert.equal((await upstreamBodyAfterChat('openai-compatible', { max_output_tokens: 50 })).max_tokens, 50);
    assert.equal((await upstreamBodyAfterChat('anthropic', { max_output_tokens: 50 })).max_tokens, 50);
    const gemini = await upstreamBodyAfterChat('gemini', { max_output_tokens: 50 });
    assert.equal((gemini.generationConfig as { maxOutputTokens?: number }).maxOutputTokens, 50);
  });

  test('a reasoning budget counts inside the cap', async () => {
    const small = await upstreamBodyAfterChat('anthropic', { max_output_tokens: 100 }, { reasoning_effort: 'high' });
    assert.equal(small.max_tokens, 100);
    assert.equal(small.thinking, undefined, 'no room for Anthropic’s smallest budget (1,024) within 100');
    const roomy = await upstreamBodyAfterChat('anthropic', { max_output_tokens: 8000 }, { reasoning_effort: 'high' });
    assert.equal(roomy.max_tokens, 8000);
    assert.ok((roomy.thinking as { budget_tokens: number }).budget_tokens < 8000);
    const gemini = await upstreamBodyAfterChat('gemini', { max_output_tokens: 100 }, { reasoning_effort: 'high' });
    const config = gemini.generationConfig as { maxOutputTokens: number; thinkingConfig: { thinkingBudget: number } };
    assert.equal(config.maxOutputTokens, 100);
    assert.ok(config.thinkingConfig.thinkingBudget <= 100, `thinkingBudget ${config.thinkingConfig.thinkingBudget}`);
  });

  test('pass-throughs get the cap in the body they forward, and a larger budget is refused', async () => {
    const gemini = await startUpstreamGateway('gemini', { model: reasoningModel });
    try {
      const { key } = await cappedClient(gemini.gateway, { max_output_tokens: 50 });
      const send = (body: Record<string, unknown>) =>
        fetch(`${gemini.gateway.origin}/v1beta/models/test-model:generateContent`, {
          method: 'POST',
          headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], ...body }),
        });
      gemini.upstream.enqueue({ fixture: 'gemini/non-stream-text.json', protocol: 'gemini' });
      assert.equal((await send({ generationConfig: { temperature: 0 } })).status, 200);
      assert.deepEqual(gemini.upstream.requests[0]!.json, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { temperature: 0, maxOutputTokens: 50 } });
      const refused = await send({ generationConfig: { thinkingConfig: { thinkingBudget: 20_000 } } });
      assert.equal(refused.status, 403);
      assert.match(await refused.text(), /thinkingBudget/);
      assert.equal(gemini.upstream.requests.length, 1);
    } finally {
      await gemini.close();
    }

    const responses = await startUpstreamGateway('openai', { provider: { api: 'responses' }, model: reasoningModel });
    try {
      const { openai } = await cappedClient(responses.gateway, { max_output_tokens: 50 });
      responses.upstream.enqueue({ status: 500, json: { error: { message: 'enough' } } }, { status: 500, json: { error: { message: 'enough' } } });
      await openai.responses.create({ model: 'test-model', input: 'hi' }).catch(() => undefined);
      assert.equal((responses.upstream.requests[0]!.json as { max_output_tokens?: number }).max_output_tokens, 50);
    } finally {
      await responses.close();
    }
  });
});

describe('image_sizes holds when the request names no size', () => {
  test('the first permitted size the model offers is used', async () => {
    const gateway = await startGateway();
    try {
      const { openai } = await cappedClient(gateway, { image_sizes: ['256x256'] });
      const image = await openai.images.generate({ model: 'builtin/image', prompt: 'a red circle', response_format: 'b64_json' });
      const { width, height } = await sharp(Buffer.from(image.data![0]!.b64_json!, 'base64')).metadata();
      assert.deepEqual([width, height], [256, 256]);
    } finally {
      await gateway.close();
    }
  });

  test('a model offering none of the permitted sizes is refused', async () => {
    const config = { ...testConfig, models: testConfig.models.map((model) => (model.id === 'builtin/image' ? { ...model, images: { ...model.images, sizes: ['1024x1024'] } } : model)) };
    const gateway = await startGateway({ config });
    try {
      const { openai } = await cappedClient(gateway, { image_sizes: ['256x256'] });
      await assert.rejects(openai.images.generate({ model: 'builtin/image', prompt: 'a red circle' }), (error: { status?: number; param?: string }) => error.status === 403 && error.param === 'size');
    } finally {
      await gateway.close();
    }
  });
});

// Issue 39: a model entry that names a known upstream model gets its output limit from the price catalog
// (config/price-catalog/price-catalog.ts fills `max_output_tokens`, as the config's own would be); that limit
// is the model's output ceiling.
describe("the model's max_output_tokens is its output ceiling", () => {
  test('a cap the client names above it is a 400 in the protocol’s shape, and nothing goes upstream', async () => {
    const anthropic = await startUpstreamGateway('anthropic', { model: { max_output_tokens: 1_000 } });
    const openai = await startUpstreamGateway('openai', { model: { max_output_tokens: 1_000 } });
    try {
      const key = await keyOfNewAccount(anthropic.gateway, {});
      const over = await sendInProtocol(anthropic, key, 'messages', { max_tokens: 1_001, messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(over.status, 400, over.text);
      assert.deepEqual(JSON.parse(over.text).error.type, 'invalid_request_error');
      assert.match(over.text, /max_tokens is 1001, more than 1000/);
      assert.equal(anthropic.upstream.requests.length, 0);
      anthropic.upstream.enqueue({ status: 500, json: { type: 'error', error: { type: 'api_error', message: 'enough' } } });
      await sendInProtocol(anthropic, key, 'messages', { max_tokens: 1_000, messages: [{ role: 'user', content: 'hi' }] });
      assert.equal((anthropic.upstream.requests[0]!.json as { max_tokens: number }).max_tokens, 1_000, 'a cap at the ceiling goes through');

      const chatKey = await keyOfNewAccount(openai.gateway, {});
      const chat = await sendInProtocol(openai, chatKey, 'chat', { max_completion_tokens: 5_000, messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(chat.status, 400, chat.text);
      assert.equal(JSON.parse(chat.text).error.param, 'max_completion_tokens');
      assert.equal(openai.upstream.requests.length, 0);
    } finally {
      await Promise.all([anthropic.close(), openai.close()]);
    }
  });

  test('a cap the gateway grants a request naming none is never above it, though default_output_tokens is', async () => {
    const setup = await startUpstreamGateway('openai', { model: { max_output_tokens: 1_000 } });
    try {
      // A tokens-per-minute limit makes the gateway grant a cap (up to default_output_tokens, 8,192 by default).
      const key = await keyOfNewAccount(setup.gateway, { limits: { tokens_per_minute: 100_000 } });
      setup.upstream.enqueue({ status: 500, json: { error: { message: 'enough' } } }, { status: 500, json: { error: { message: 'enough' } } });
      await sendInProtocol(setup, key, 'chat', { messages: [{ role: 'user', content: 'hi' }] });
      assert.equal((setup.upstream.requests[0]!.json as { max_completion_tokens?: number }).max_completion_tokens, 1_000);
    } finally {
      await setup.close();
    }
  });
});
