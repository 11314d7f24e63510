// Capability gating end to end: what a model lacks is dropped and named in a header, or refused with 400
// when the model says `on_unsupported: reject`; image input without `vision` is always refused.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startUpstreamGateway, tinyPng, type UpstreamGateway } from './helpers/upstream-gateway.js';

const weatherTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const schemaFormat = {
  type: 'json_schema' as const,
  json_schema: { name: 'answer', schema: { type: 'object', properties: { city: { type: 'string' } } } },
};

let setup: UpstreamGateway | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

describe('on_unsupported: drop (the default)', () => {
  for (const type of ['openai', 'anthropic'] as const) {
    test(`tools, response_format and reasoning_effort are left out upstream and named in the header (${type} upstream)`, async () => {
      setup = await startUpstreamGateway(type, { model: { capabilities: ['chat', 'streaming'] } });
      setup.upstream.enqueue(
        type === 'openai'
          ? { fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' }
          : { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
      );
      const { response } = await setup.openai.chat.completions
        .create({
          model: 'test-model',
          messages: [{ role: 'user', content: 'Weather in Paris?' }],
          tools: [weatherTool],
          tool_choice: 'auto',
          response_format: schemaFormat,
          reasoning_effort: 'low',
        })
        .withResponse();
      assert.equal(response.headers.get('x-gateway-dropped-params'), 'tools, tool_choice, response_format, reasoning_effort');
      const sent = setup.upstream.requests[0]!.json as Record<string, unknown>;
      for (const field of ['tools', 'tool_choice', 'response_format', 'reasoning_effort', 'thinking']) {
        assert.equal(field in sent, false, `${field} did not reach the upstream`);
      }
    });
  }

  test('nothing dropped, no header', async () => {
    setup = await startUpstreamGateway('openai');
    setup.upstream.enqueue({ fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' });
    const { response } = await setup.openai.chat.completions
      .create({ model: 'test-model', messages: [{ role: 'user', content: 'Hi' }], tools: [weatherTool] })
      .withResponse();
    assert.equal(response.headers.get('x-gateway-dropped-params'), null);
    assert.ok('tools' in (setup.upstream.requests[0]!.json as object));
  });
});

describe('on_unsupported: reject', () => {
  test('a parameter the model lacks is a 400 naming it, and the upstream is never called', async () => {
    setup = await startUpstreamGateway('gemini', { model: { capabilities: ['chat', 'streaming', 'tools'], on_unsupported: 'reject' } });
    await assert.rejects(
      setup.openai.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'Hi' }], response_format: schemaFormat }),
      (error: InstanceType<typeof OpenAI.BadRequestError>) => {
        assert.equal(error.status, 400);
        assert.equal(error.param, 'response_format');
        assert.equal(error.code, 'unsupported_parameter');
        return true;
      },
    );
    assert.equal(setup.upstream.requests.length, 0);
  });
});

test('image input to a model without vision is a 400 even when dropping is allowed', async () => {
  setup = await startUpstreamGateway('openai-compatible');
  await assert.rejects(
    setup.openai.chat.completions.create({
      model: 'test-model',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: tinyPng } }] }],
    }),
    (error: InstanceType<typeof OpenAI.BadRequestError>) => error.status === 400 && error.param === 'messages' && /image input/.test(error.message),
  );
  assert.equal(setup.upstream.requests.length, 0);
});
