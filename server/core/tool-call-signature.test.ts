import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeToolCallId, encodeToolCallId } from './tool-call-signature.js';

test('a Gemini thought signature survives the trip through a tool call ID', () => {
  const signature = 'CiQBcsjafK+/9wQ3ZW5vbW9yZQ==';
  const encoded = encodeToolCallId('call_1', signature);
  assert.match(encoded, /^[A-Za-z0-9_-]+$/, 'Anthropic tool_use IDs allow only [A-Za-z0-9_-]');
  assert.deepEqual(decodeToolCallId(encoded), { id: 'call_1', signature });
});

test('IDs without a signature are left alone both ways', () => {
  assert.equal(encodeToolCallId('call_abc', undefined), 'call_abc');
  assert.deepEqual(decodeToolCallId('toolu_01ABC'), { id: 'toolu_01ABC' });
});
