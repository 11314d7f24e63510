import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelRequest, userSays } from '../../../test/helpers/model-request-fixtures.js';
import type { Message } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { fixtureJson } from '../../../test/helpers/upstream-fixtures.js';
import { resolveQuirks } from '../openai-compatible/quirks.js';
import { convertRequest } from './convert-request.js';

const openai = resolveQuirks(undefined, 'openai');
const compatible = resolveQuirks(undefined, 'openai-compatible');
const multiply = {
  name: 'multiply',
  description: 'Multiply two numbers.',
  parameters: { properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], type: 'object' },
};

describe('convertRequest (internal → Chat Completions)', () => {
  it('matches the recorded tool-call request apart from the explicit tool_choice', () => {
    const body = convertRequest(modelRequest([userSays('What is 1231 * 2331?')], { tools: [multiply] }), 'gpt-4o-mini', openai);
    const recorded = fixtureJson('openai-chat/stream-tool-call-include-usage.request.json');
    assert.deepEqual(body, { ...recorded, tool_choice: 'auto' });
  });

  it('sends instructions as leading system messages and a lone text part as a string', () => {
    const body = convertRequest(modelRequest([userSays('Hi')], { instructions: [{ text: 'Be brief.' }, { text: 'Use French.', cache: { type: 'ephemeral' } }] }), 'm', openai);
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Use French.' },
      { role: 'user', content: 'Hi' },
    ]);
    assert.equal('tools' in body, false);
    assert.equal('tool_choice' in body, false);
    assert.equal('parallel_tool_calls' in body, false);
    assert.equal('response_format' in body, false);
    assert.equal('stop' in body, false);
  });

  it('sends an inline image as a data URL, as in the recorded image request', () => {
    const recorded = fixtureJson<{ messages: Array<{ content: Array<{ text?: string; image_url?: { url: string } }> }> }>(
      'openai-chat/non-stream-image-input.request.json',
    );
    const [text, image] = recorded.messages[0].content;
    const data = image.image_url!.url.replace('data:image/png;base64,', '');
    const message: Message = {
      role: 'user',
      content: [
        { type: 'text', text: text.text! },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data } },
      ],
    };
    const body = convertRequest(modelRequest([message]), 'gpt-5-nano', openai);
    assert.deepEqual(body.messages, recorded.messages);
  });

  it('keeps image URLs and detail, and sends base64 files inline with a filename', () => {
    const message: Message = {
      role: 'user',
      content: [
        { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' }, detail: 'low' },
        { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'a.pdf' },
        { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
      ],
    };
    assert.deepEqual(convertRequest(modelRequest([message]), 'm', openai).messages[0], {
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'low' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'file-0-2.pdf' } },
      ],
    });
  });

  it('refuses files by URL', () => {
    const message: Message = { role: 'user', content: [{ type: 'file', source: { kind: 'url', url: 'https://example.com/a.pdf' } }] };
    assert.throws(
      () => convertRequest(modelRequest([message]), 'm', openai),
      (error) => error instanceof GatewayError && error.kind === 'invalid_request' && error.param === 'messages',
    );
  });

  it('converts a tool round trip like the recorded json_schema request, dropping reasoning', () => {
    const messages: Message[] = [
      userSays('What is the largest city in the user country?'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'I should look up the country.', signature: 'sig' },
          { type: 'tool_call', id: 'call_PkRGedQNRFUzJp2R7dO7avWR', name: 'get_user_country', arguments: '{}' },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', callId: 'call_PkRGedQNRFUzJp2R7dO7avWR', content: [{ type: 'text', text: 'Mexico' }] }] },
    ];
    const recorded = fixtureJson<{ messages: unknown[]; response_format: { json_schema: { schema: Record<string, unknown> } } }>(
      'openai-chat/non-stream-json-schema.request.json',
    );
    const body = convertRequest(
      modelRequest(messages, {
        tools: [{ name: 'get_user_country', description: '', parameters: { additionalProperties: false, properties: {}, type: 'object' } }],
        responseFormat: { type: 'json_schema', name: 'result', schema: recorded.response_format.json_schema.schema, strict: false },
      }),
      'gpt-4o',
      openai,
    );
    assert.deepEqual(body.messages, recorded.messages);
    assert.deepEqual(body.response_format, recorded.response_format);
    assert.equal(JSON.stringify(body).includes('look up the country'), false);
  });

  it('sends one tool message per result, before any text of the same turn', () => {
    const message: Message = {
      role: 'user',
      content: [
        { type: 'tool_result', callId: 'a', content: [{ type: 'text', text: '1' }, { type: 'text', text: '2' }], isError: true },
        { type: 'tool_result', callId: 'b', content: [{ type: 'text', text: '3' }] },
        { type: 'text', text: 'Thanks', cache: { type: 'ephemeral' } },
      ],
    };
    assert.deepEqual(convertRequest(modelRequest([message]), 'm', openai).messages, [
      { role: 'tool', tool_call_id: 'a', content: '1\n2' },
      { role: 'tool', tool_call_id: 'b', content: '3' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('refuses images in tool results', () => {
    const message: Message = {
      role: 'user',
      content: [{ type: 'tool_result', callId: 'a', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/x.png' } }] }],
    };
    assert.throws(() => convertRequest(modelRequest([message]), 'm', openai), (error) => error instanceof GatewayError && error.kind === 'invalid_request');
  });

  it('joins assistant text; a turn of reasoning alone becomes empty text', () => {
    const body = convertRequest(
      modelRequest([
        { role: 'assistant', content: [{ type: 'text', text: 'One.' }, { type: 'text', text: 'Two.' }] },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm' }] },
      ]),
      'm',
      openai,
    );
    assert.deepEqual(body.messages, [
      { role: 'assistant', content: 'One.\nTwo.' },
      { role: 'assistant', content: '' },
    ]);
  });

  it('maps tools, tool_choice, parallel_tool_calls and json_object', () => {
    const base = { tools: [{ ...multiply, strict: true }], parallelToolCalls: false, responseFormat: { type: 'json_object' as const } };
    const body = convertRequest(modelRequest([userSays('x')], { ...base, toolChoice: { type: 'tool', name: 'multiply' } }), 'm', openai);
    assert.deepEqual(body.tools, [{ type: 'function', function: { ...multiply, strict: true } }]);
    assert.deepEqual(body.tool_choice, { type: 'function', function: { name: 'multiply' } });
    assert.equal(body.parallel_tool_calls, false);
    assert.deepEqual(body.response_format, { type: 'json_object' });
    for (const type of ['none', 'required'] as const) {
      assert.equal(convertRequest(modelRequest([userSays('x')], { ...base, toolChoice: { type } }), 'm', openai).tool_choice, type);
    }
  });

  it('maps sampling parameters and drops top_k', () => {
    const body = convertRequest(
      modelRequest([userSays('x')], {
        maxOutputTokens: 100,
        temperature: 0.5,
        topP: 0.9,
        topK: 40,
        stopSequences: ['END'],
        seed: 7,
        frequencyPenalty: 0.1,
        presencePenalty: 0.2,
        user: 'u1',
        metadata: { team: 'a' },
        reasoning: { budgetTokens: 8_000 },
      }),
      'o4-mini',
      openai,
    );
    const { messages: _messages, ...rest } = body;
    assert.deepEqual(rest, {
      model: 'o4-mini',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      frequency_penalty: 0.1,
      presence_penalty: 0.2,
      user: 'u1',
      metadata: { team: 'a' },
      reasoning_effort: 'medium',
    });
  });

  it('follows the quirks: max_tokens and no stream_options', () => {
    const body = convertRequest(modelRequest([userSays('x')], { maxOutputTokens: 50 }), 'llama3', { ...compatible, streamOptions: false });
    assert.equal(body.max_tokens, 50);
    assert.equal('max_completion_tokens' in body, false);
    assert.equal('stream_options' in body, false);
    assert.equal(body.stream, true);
  });
});
