import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelRequest, userSays } from '../../../test/helpers/model-request-fixtures.js';
import type { Message, ModelRequest } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { convertRequestToBedrock } from './convert-request.js';

const claude = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const convert = (messages: Message[], extra: Partial<ModelRequest> = {}, model = claude) => convertRequestToBedrock(modelRequest(messages, extra), model);
const weather = { name: 'weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const png = { kind: 'base64' as const, mediaType: 'image/png', data: 'iVBORw0KGgo=' };

describe('convertRequestToBedrock', () => {
  it('sends only messages when nothing else is asked', () => {
    assert.deepEqual(convert([userSays('Hi')]), { messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });
  });

  it('puts instructions and mid-conversation system messages in system, cache hints as cachePoints', () => {
    const body = convert(
      [
        { role: 'user', content: [{ type: 'text', text: 'Long document', cache: { type: 'ephemeral' } }] },
        { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] },
      ],
      { instructions: [{ text: 'Be brief.', cache: { type: 'ephemeral' } }] },
    );
    assert.deepEqual(body.system, [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }, { text: 'Answer in French.' }]);
    assert.deepEqual(body.messages, [{ role: 'user', content: [{ text: 'Long document' }, { cachePoint: { type: 'default' } }] }]);
  });

  it('maps the inference settings and drops what Converse has no field for', () => {
    const body = convert([userSays('Hi')], { maxOutputTokens: 100, temperature: 0.5, topP: 0.9, topK: 40, seed: 7, stopSequences: ['END'], user: 'u1' });
    assert.deepEqual(body.inferenceConfig, { maxTokens: 100, temperature: 0.5, topP: 0.9, stopSequences: ['END'] });
    assert.equal(Object.keys(body).sort().join(), 'inferenceConfig,messages');
  });

  it('asks Claude for thinking in additionalModelRequestFields, with room to answer and no temperature', () => {
    const body = convert([userSays('Think')], { reasoning: { budgetTokens: 2000 }, temperature: 0.3 });
    assert.deepEqual(body.additionalModelRequestFields, { thinking: { type: 'enabled', budget_tokens: 2000 } });
    assert.ok(body.inferenceConfig!.maxTokens! > 2000);
    assert.equal(body.inferenceConfig!.temperature, undefined);
    // Other model families name reasoning otherwise: nothing Claude-specific goes to them.
    assert.equal(convert([userSays('Think')], { reasoning: { effort: 'high' } }, 'amazon.nova-pro-v1:0').additionalModelRequestFields, undefined);
  });

  it('sends tools as toolSpecs and maps each tool choice', () => {
    const tools = [weather];
    const spec = { toolSpec: { name: 'weather', description: 'Weather for a city', inputSchema: { json: weather.parameters } } };
    assert.deepEqual(convert([userSays('Hi')], { tools }).toolConfig, { tools: [spec], toolChoice: { auto: {} } });
    assert.deepEqual(convert([userSays('Hi')], { tools, toolChoice: { type: 'required' } }).toolConfig?.toolChoice, { any: {} });
    assert.deepEqual(convert([userSays('Hi')], { tools, toolChoice: { type: 'tool', name: 'weather' } }).toolConfig?.toolChoice, { tool: { name: 'weather' } });
    assert.equal(convert([userSays('Hi')], { tools, toolChoice: { type: 'none' } }).toolConfig, undefined, 'no tools offered for none');
  });

  it('sends tool calls and results as toolUse and toolResult, keeping tools when the history has them', () => {
    const body = convert(
      [
        userSays('Weather?'),
        { role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' }] },
        { role: 'user', content: [{ type: 'tool_result', callId: 'call_1', content: [{ type: 'text', text: 'cold' }], isError: true }] },
      ],
      { tools: [weather], toolChoice: { type: 'none' } },
    );
    assert.deepEqual(body.messages.slice(1), [
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'call_1', name: 'weather', input: { city: 'Oslo' } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'call_1', content: [{ text: 'cold' }], status: 'error' } }] },
    ]);
    assert.deepEqual(body.toolConfig?.toolChoice, { auto: {} });
  });

  it('refuses tool arguments that are not a JSON object', () => {
    assert.throws(
      () => convert([userSays('x'), { role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'weather', arguments: '[1]' }] }]),
      (error: unknown) => error instanceof GatewayError && error.status === 400,
    );
  });

  it('sends images and data URLs as bytes, documents by format, and refuses what Bedrock cannot take', () => {
    const body = convert([
      {
        role: 'user',
        content: [
          { type: 'image', source: png },
          { type: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,/9j/4AAQ' } },
          { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'report_2024.pdf' },
        ],
      },
    ]);
    assert.deepEqual(body.messages[0]!.content, [
      { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } },
      { image: { format: 'jpeg', source: { bytes: '/9j/4AAQ' } } },
      { document: { format: 'pdf', name: 'report 2024', source: { bytes: 'JVBERi0=' } } },
    ]);
    const refused = (source: Extract<Message['content'][number], { type: 'image' }>['source']) => () => convert([{ role: 'user', content: [{ type: 'image', source }] }]);
    assert.throws(refused({ kind: 'url', url: 'https://example.com/cat.png' }), /inline only/);
    assert.throws(refused({ kind: 'base64', mediaType: 'image/tiff', data: 'AAAA' }), /PNG, JPEG, GIF and WebP/);
  });

  it('sends signed reasoning back and leaves unsigned reasoning out', () => {
    const body = convert([
      userSays('Q'),
      { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm', signature: 'sig' }, { type: 'reasoning', text: 'foreign' }, { type: 'text', text: 'A' }] },
      userSays('Q2'),
    ]);
    assert.deepEqual(body.messages[1]!.content, [{ reasoningContent: { reasoningText: { text: 'hmm', signature: 'sig' } } }, { text: 'A' }]);
  });

  it('refuses a JSON response format, which Converse has no mode for', () => {
    assert.throws(() => convert([userSays('Hi')], { responseFormat: { type: 'json_object' } }), (error: unknown) => error instanceof GatewayError && error.param === 'response_format');
  });
});
