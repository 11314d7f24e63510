import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../../core/gateway-error.js';
import { encodeReasoningState } from '../openai-responses/reasoning-state.js';
import { convertContents } from './convert-contents.js';

describe('convertContents', () => {
  it('maps roles, media and drops what no upstream takes', () => {
    const messages = convertContents([
      {
        role: 'user',
        parts: [
          { text: 'Look' },
          { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
          { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
          { fileData: { fileUri: 'https://example.com/doc' } },
          { text: '' },
        ],
      },
      { role: 'model', parts: [{ text: 'Seen.', thoughtSignature: 'dropped' }, { inlineData: { mimeType: 'image/png', data: 'x' } }, { executableCode: { code: '1' } }] },
      { parts: [{ text: 'No role is a user turn' }] },
    ]);
    assert.deepEqual(messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBO' } },
          { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/a.jpg' } },
          { type: 'file', source: { kind: 'url', url: 'https://example.com/doc' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Seen.' }] },
      { role: 'user', content: [{ type: 'text', text: 'No role is a user turn' }] },
    ]);
  });

  it('gives calls positional IDs, keeps their signatures and matches responses by name, in order', () => {
    const messages = convertContents([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'sig-1' },
          { functionCall: { name: 'weather', args: { city: 'Rome' } } },
          { functionCall: { name: 'time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'time', response: { output: '12:00' } } },
          { functionResponse: { name: 'weather', response: { output: { temp: 20 } } } },
          { functionResponse: { name: 'weather', response: { error: 'no station' } } },
        ],
      },
    ]);
    assert.deepEqual(messages[1]!.content, [
      { type: 'tool_call', id: 'call_1_0', name: 'weather', arguments: '{"city":"Paris"}', signature: 'sig-1' },
      { type: 'tool_call', id: 'call_1_1', name: 'weather', arguments: '{"city":"Rome"}' },
      { type: 'tool_call', id: 'call_1_2', name: 'time', arguments: '{}' },
    ]);
    assert.deepEqual(messages[2]!.content, [
      { type: 'tool_result', callId: 'call_1_2', name: 'time', content: [{ type: 'text', text: '12:00' }] },
      { type: 'tool_result', callId: 'call_1_0', name: 'weather', content: [{ type: 'text', text: '{"temp":20}' }] },
      { type: 'tool_result', callId: 'call_1_1', name: 'weather', content: [{ type: 'text', text: 'no station' }], isError: true },
    ]);
  });

  it('prefers a client-sent id; reads the AI SDK’s {name, content} and keeps other objects whole', () => {
    const messages = convertContents([
      { role: 'model', parts: [{ functionCall: { id: 'a', name: 'f' } }, { functionCall: { id: 'b', name: 'f' } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'b', name: 'f', response: { name: 'f', content: { ok: true } } } },
          { functionResponse: { id: 'a', name: 'f', response: { result: 1, note: 'x' } } },
        ],
      },
    ]);
    assert.deepEqual(messages[1]!.content, [
      { type: 'tool_result', callId: 'call_0_1', name: 'f', content: [{ type: 'text', text: '{"ok":true}' }] },
      { type: 'tool_result', callId: 'call_0_0', name: 'f', content: [{ type: 'text', text: '{"result":1,"note":"x"}' }] },
    ]);
  });

  it('merges turns of one role, joining streamed text and thought parts under their signature', () => {
    const blob = encodeReasoningState({ signature: 'anthropic-sig' })!;
    const messages = convertContents([
      { role: 'user', parts: [{ text: 'Hi' }] },
      { role: 'model', parts: [{ text: 'Let me ', thought: true }] },
      { role: 'model', parts: [{ text: 'think.', thought: true }] },
      { role: 'model', parts: [{ text: '', thought: true, thoughtSignature: blob }] },
      { role: 'model', parts: [{ text: 'Hel' }] },
      { role: 'model', parts: [{ text: 'lo!' }] },
    ]);
    assert.deepEqual(messages, [
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Let me think.', signature: 'anthropic-sig' },
          { type: 'text', text: 'Hello!' },
        ],
      },
    ]);
  });

  it('refuses unknown roles and calls in the wrong turn, naming the field', () => {
    assert.throws(() => convertContents([{ role: 'system', parts: [{ text: 'x' }] }]), (error: GatewayError) => error.param === 'contents[0].role');
    assert.throws(
      () => convertContents([{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }]),
      (error: GatewayError) => error.status === 400 && error.param === 'contents[0].parts[0]',
    );
  });

  it('carries images of a multimodal function response', () => {
    const [, result] = convertContents([
      { role: 'model', parts: [{ functionCall: { name: 'shot' } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'shot', response: { output: 'done' }, parts: [{ inlineData: { mimeType: 'image/png', data: 'AAA' } }] } }] },
    ]);
    assert.deepEqual(result!.content[0], {
      type: 'tool_result',
      callId: 'call_0_0',
      name: 'shot',
      content: [{ type: 'text', text: 'done' }, { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAA' } }],
    });
  });
});
