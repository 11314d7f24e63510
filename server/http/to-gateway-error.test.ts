import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paramFromPointer, toGatewayError } from './to-gateway-error.js';
import { GatewayError } from '../core/gateway-error.js';
import { markStoreError } from '../store/store-unavailable.js';

test('names params the way OpenAI does', () => {
  assert.equal(paramFromPointer('/body/messages/0/role'), 'messages[0].role');
  assert.equal(paramFromPointer('/body/tools/1/function/name'), 'tools[1].function.name');
  assert.equal(paramFromPointer('/body'), undefined);
});

test('hides the details of unknown errors', () => {
  const error = toGatewayError(new Error('connect ECONNREFUSED 10.0.0.1 with key sk-secret'));
  assert.equal(error.status, 500);
  assert.equal(error.message, 'Internal server error.');
});

test('maps body-parser errors', () => {
  const tooLarge = toGatewayError(Object.assign(new Error('too large'), { type: 'entity.too.large', limit: 10 }));
  assert.equal(tooLarge.status, 413);
  const badJson = toGatewayError(Object.assign(new Error('Unexpected token'), { type: 'entity.parse.failed' }));
  assert.equal(badJson.status, 400);
  assert.ok(badJson instanceof GatewayError);
});

test('a database out of reach is 503 with retry-after; its details stay in the log', () => {
  const lost = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
  markStoreError(lost);
  const error = toGatewayError(lost);
  assert.deepEqual([error.status, error.kind, error.headers], [503, 'overloaded', { 'retry-after': '5' }]);
  assert.doesNotMatch(error.message, /10\.0\.0\.5|ECONNREFUSED/);
  assert.equal(error.cause, lost);
});
