import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelRequest, userSays } from '../../../test/helpers/model-request-fixtures.js';
import type { Message, ModelRequest } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { convertToGeminiRequest, guessMimeType, skipThoughtSignature } from './convert-request.js';

const weather = { name: 'weather', description: 'Current weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } };
const convert = (messages: Message[], extra: Partial<ModelRequest> = {}) => convertToGeminiRequest(modelRequest(messages, extra));

describe('convertToGeminiRequest', () => {
  it('sends a plain conversation with nothing else', () => {
    assert.deepEqual(convert([userSays('Hi')]), { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('puts each instruction in its own systemInstruction part', () => {
    const body = convert([userSays('Hi')], { instructions: [{ text: 'Be brief.' }, { text: 'Speak French.', cache: { type: 'ephemeral' } }] });
    assert.deepEqual(body.systemInstruction, { parts: [{ text: 'Be brief.' }, { text: 'Speak French.' }] });
  });

  it('maps roles and merges consecutive messages of one role', () => {
    const body = convert([
      userSays('One'),
      userSays('Two'),
      { role: 'assistant', content: [{ type: 'reasoning', text: 'thinking…', signature: 'sig' }, { type: 'text', text: 'Three' }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'only thoughts' }] },
      userSays('Four'),
    ]);
    assert.deepEqual(body.contents, [
      { role: 'user', parts: [{ text: 'One' }, { text: 'Two' }] },
      { role: 'model', parts: [{ text: 'Three' }] },
      { role: 'user', parts: [{ text: 'Four' }] },
    ]);
  });

  it('sends base64 media inline and URLs as fileData with a guessed type', () => {
    const body = convert([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare' },
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.WEBP?size=large' } },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/render' } },
          { type: 'file', source: { kind: 'url', url: 'https://example.com/report.pdf' }, filename: 'report.pdf' },
          { type: 'file', source: { kind: 'url', url: 'https://example.com/blob' } },
        ],
      },
    ]);
    assert.deepEqual(body.contents[0].parts, [
      { text: 'Compare' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/cat.WEBP?size=large' } },
      { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/render' } },
      { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/report.pdf' } },
      { fileData: { mimeType: 'application/octet-stream', fileUri: 'https://example.com/blob' } },
    ]);
    assert.equal(guessMimeType('not a url/photo.jpg#x'), 'image/jpeg');
  });

  it('converts a tool round trip, naming the result from its call and keeping the signature', () => {
    const body = convert(
      [
        userSays('Weather in SF?'),
        {
          role: 'assistant',
          content: [{ type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"location":"San Francisco"}', signature: 'EqUCsig' }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', callId: 'call_1', content: [{ type: 'text', text: 'Sunny, ' }, { type: 'text', text: '18 °C' }] },
          ],
        },
        userSays('And tomorrow?'),
      ],
      { tools: [weather] },
    );
    assert.deepEqual(body.contents, [
      { role: 'user', parts: [{ text: 'Weather in SF?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'weather', args: { location: 'San Francisco' } }, thoughtSignature: 'EqUCsig' }] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'weather', response: { content: 'Sunny, \n18 °C' } } }, { text: 'And tomorrow?' }],
      },
    ]);
    assert.deepEqual(body.tools, [
      { functionDeclarations: [{ name: 'weather', description: 'Current weather', parametersJsonSchema: weather.parameters }] },
    ]);
    assert.deepEqual(body.toolConfig, { functionCallingConfig: { mode: 'AUTO' } });
  });

  it('puts the escape signature on the first call of a model turn that has none, and only then', () => {
    const call = (id: string, signature?: string) => ({ type: 'tool_call' as const, id, name: 'weather', arguments: '{}', signature });
    const body = convert([
      userSays('Two cities'),
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, call('a'), call('b')] },
      { role: 'user', content: [{ type: 'tool_result', callId: 'a', content: [] }, { type: 'tool_result', callId: 'b', content: [] }] },
      { role: 'assistant', content: [call('c', 'real-signature'), call('d')] },
    ]);
    assert.deepEqual(body.contents[1].parts, [
      { text: 'Checking.' },
      { functionCall: { name: 'weather', args: {} }, thoughtSignature: skipThoughtSignature },
      { functionCall: { name: 'weather', args: {} } },
    ]);
    assert.equal(skipThoughtSignature, 'skip_thought_signature_validator');
    assert.deepEqual(body.contents[3].parts, [
      { functionCall: { name: 'weather', args: {} }, thoughtSignature: 'real-signature' },
      { functionCall: { name: 'weather', args: {} } },
    ]);
  });

  it('sends JSON-object results as the response itself, errors as {error}, and drops images in results', () => {
    const body = convert([
      { role: 'user', content: [{ type: 'tool_result', callId: 'x', name: 'lookup', content: [{ type: 'text', text: '{"population":2100000}' }] }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            callId: 'y',
            name: 'snapshot',
            content: [{ type: 'text', text: 'see image' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } }],
          },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', callId: 'z', name: 'lookup', isError: true, content: [{ type: 'text', text: 'timeout' }] }] },
    ]);
    assert.deepEqual(body.contents, [
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'lookup', response: { population: 2100000 } } },
          { functionResponse: { name: 'snapshot', response: { content: 'see image' } } },
          { functionResponse: { name: 'lookup', response: { error: 'timeout' } } },
        ],
      },
    ]);
  });

  it('refuses a tool result whose function name cannot be found', () => {
    assert.throws(
      () => convert([{ role: 'user', content: [{ type: 'tool_result', callId: 'call_missing', content: [] }] }]),
      (error: unknown) => error instanceof GatewayError && error.kind === 'invalid_request' && error.param === 'messages' && error.message.includes('call_missing'),
    );
  });

  it('refuses tool-call arguments that are not a JSON object, and reads blank ones as {}', () => {
    for (const bad of ['[1,2]', 'not json', '"text"']) {
      assert.throws(
        () => convert([{ role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: bad }] }]),
        (error: unknown) => error instanceof GatewayError && error.kind === 'invalid_request' && error.param === 'messages',
      );
    }
    const body = convert([{ role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: ' ' }] }]);
    assert.deepEqual(body.contents[0].parts[0], { functionCall: { name: 'f', args: {} }, thoughtSignature: skipThoughtSignature });
  });

  it('maps every tool choice, and sends no tool config without tools', () => {
    const modes = [
      [{ type: 'auto' }, { mode: 'AUTO' }],
      [{ type: 'none' }, { mode: 'NONE' }],
      [{ type: 'required' }, { mode: 'ANY' }],
      [{ type: 'tool', name: 'weather' }, { mode: 'ANY', allowedFunctionNames: ['weather'] }],
    ] as const;
    for (const [toolChoice, expected] of modes) {
      assert.deepEqual(convert([userSays('x')], { tools: [weather], toolChoice }).toolConfig, { functionCallingConfig: expected });
    }
    const bare = convert([userSays('x')], { toolChoice: { type: 'none' } });
    assert.equal(bare.tools, undefined);
    assert.equal(bare.toolConfig, undefined);
  });

  it('copies sampling settings, omitting unset ones and empty stop sequences', () => {
    const body = convert([userSays('x')], {
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      maxOutputTokens: 256,
      stopSequences: ['END'],
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.3,
      user: 'u-1',
      metadata: { team: 'a' },
      parallelToolCalls: false,
    });
    assert.deepEqual(body.generationConfig, {
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      maxOutputTokens: 256,
      stopSequences: ['END'],
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.3,
    });
    assert.deepEqual(Object.keys(body).sort(), ['contents', 'generationConfig']);
    assert.equal(convert([userSays('x')], { temperature: 0 }).generationConfig?.temperature, 0);
    assert.equal(convert([userSays('x')], { stopSequences: [] }).generationConfig, undefined);
  });

  it('asks for JSON output with and without a schema', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    assert.deepEqual(convert([userSays('x')], { responseFormat: { type: 'json_schema', name: 'result', schema, strict: true } }).generationConfig, {
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    assert.deepEqual(convert([userSays('x')], { responseFormat: { type: 'json_object' } }).generationConfig, { responseMimeType: 'application/json' });
  });

  it('turns a reasoning request into a thinking budget, and 0 into thinking off', () => {
    const thinking = (reasoning: ModelRequest['reasoning']) => convert([userSays('x')], { reasoning }).generationConfig?.thinkingConfig;
    assert.deepEqual(thinking({ budgetTokens: 4000 }), { thinkingBudget: 4000, includeThoughts: true });
    assert.deepEqual(thinking({ effort: 'medium' }), { thinkingBudget: 8192, includeThoughts: true });
    assert.deepEqual(thinking({ effort: 'none' }), { thinkingBudget: 0 });
    assert.equal(thinking(undefined), undefined);
  });
});
