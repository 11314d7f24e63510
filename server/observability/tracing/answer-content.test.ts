import assert from 'node:assert/strict';
import { test } from 'node:test';
import { protocolDefinitions } from '../../protocols/registry.js';
import { collectFinishReasons, inputMessages, maxCapturedCharacters, outputMessages, systemInstructions } from './answer-content.js';

/** What every client protocol calls its finish reason. */
const everyProtocolsKeys = protocolDefinitions.flatMap((definition) => definition.answerReader.finishReasonKeys);

function finishReasons(value: unknown): string[] {
  const into = new Set<string>();
  collectFinishReasons(value, everyProtocolsKeys, into);
  return [...into];
}

test('finish reasons in every client protocol, wherever its answer keeps them', () => {
  assert.deepEqual(finishReasons({ choices: [{ index: 0, finish_reason: 'length' }, { index: 1, finish_reason: 'stop' }] }), ['length', 'stop']);
  assert.deepEqual(finishReasons({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null } }), ['tool_use']);
  assert.deepEqual(finishReasons({ candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: 'MAX_TOKENS' }] }), ['MAX_TOKENS']);
  assert.deepEqual(finishReasons({ type: 'response.completed', response: { object: 'response', status: 'completed' } }), ['completed']);
  assert.deepEqual(finishReasons({ object: 'response', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }), ['max_output_tokens']);
  assert.deepEqual(finishReasons({ object: 'response', status: 'in_progress' }), []);
  assert.deepEqual(finishReasons({ choices: [{ delta: { content: 'hi' }, finish_reason: null }] }), []);
});

test('input messages in the conventions\' shape from Chat, Gemini and Responses bodies', () => {
  assert.deepEqual(JSON.parse(inputMessages({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }] })!), [
    { role: 'user', parts: [{ type: 'text', content: 'ab' }] },
  ]);
  assert.deepEqual(JSON.parse(inputMessages({ contents: [{ role: 'model', parts: [{ text: 'g' }] }] })!), [{ role: 'model', parts: [{ type: 'text', content: 'g' }] }]);
  assert.deepEqual(JSON.parse(inputMessages({ input: 'just text' })!), [{ role: 'user', parts: [{ type: 'text', content: 'just text' }] }]);
  assert.equal(inputMessages({ model: 'm' }), undefined);
});

test('system instructions apart from the messages', () => {
  assert.deepEqual(JSON.parse(systemInstructions({ system: [{ type: 'text', text: 'be brief' }] })!), [{ type: 'text', content: 'be brief' }]);
  assert.deepEqual(JSON.parse(systemInstructions({ systemInstruction: { parts: [{ text: 'terse' }] } })!), [{ type: 'text', content: 'terse' }]);
  assert.equal(systemInstructions({ messages: [] }), undefined);
});

test('captured content is cut at the limit', () => {
  const long = 'x'.repeat(maxCapturedCharacters * 2);
  assert.ok(inputMessages({ messages: [{ role: 'user', content: long }] })!.length <= maxCapturedCharacters + 1);
  assert.ok(outputMessages([long], new Set(['stop'])).length <= maxCapturedCharacters + 1);
});
