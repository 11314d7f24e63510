import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeReasoningState } from './reasoning-state.js';
import { conversationForUpstream, inputForUpstream } from './upstream-conversation.js';

const history = [
  { id: 'msg_u1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
  { id: 'rs_ours', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Think.' }], encrypted_content: encodeReasoningState({ signature: 'anthropic-sig' }) },
  { id: 'rs_openai', type: 'reasoning', summary: [], encrypted_content: 'gAAAAABopaque' },
  { id: 'rs_bare', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Only a summary.' }] },
  { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}', status: 'completed' },
];

const noLookup = () => undefined;

test('earlier turns then the new input, without item IDs; only OpenAI-readable reasoning', () => {
  const items = conversationForUpstream(history, [{ type: 'function_call_output', call_id: 'call_1', output: 'Sunny' }], noLookup);
  assert.deepEqual(items, [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
    { id: 'rs_openai', type: 'reasoning', summary: [], encrypted_content: 'gAAAAABopaque' },
    { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}', status: 'completed' },
    { type: 'function_call_output', call_id: 'call_1', output: 'Sunny' },
  ]);
});

test('a string input becomes a user message after the history', () => {
  assert.deepEqual(conversationForUpstream(history.slice(0, 1), 'Hi', noLookup).slice(1), [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
  ]);
});

test('references the gateway holds become their items; unknown ones are left to the upstream', () => {
  const lookup = (id: string) => history.find((item) => item.id === id);
  const input = inputForUpstream(
    [
      { type: 'item_reference', id: 'msg_u1' },
      { id: 'fc_1' },
      { type: 'item_reference', id: 'rs_ours' },
      { type: 'item_reference', id: 'msg_unknown' },
      { role: 'user', content: 'More?', id: 'msg_client' },
    ],
    lookup,
  );
  assert.deepEqual(input, [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
    { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}', status: 'completed' },
    { type: 'item_reference', id: 'msg_unknown' },
    { role: 'user', content: 'More?', id: 'msg_client' },
  ]);
  const plain = [{ role: 'user' as const, content: 'Hi' }];
  assert.equal(inputForUpstream(plain, lookup), plain, 'nothing to resolve: the input goes as sent');
});
