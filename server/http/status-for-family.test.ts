import assert from 'node:assert/strict';
import { it } from 'node:test';
import { GatewayError } from '../core/gateway-error.js';
import { statusForFamily } from './status-for-family.js';

it('answers overload with 529 to Anthropic clients and keeps every other status', () => {
  const overloaded = new GatewayError('overloaded', 'busy', { status: 503 });
  assert.equal(statusForFamily('anthropic', overloaded), 529);
  assert.equal(statusForFamily('openai', overloaded), 503);
  assert.equal(statusForFamily('gemini', overloaded), 503);
  assert.equal(statusForFamily('anthropic', new GatewayError('rate_limited', 'slow down')), 429);
  assert.equal(statusForFamily('anthropic', new GatewayError('upstream', 'broke')), 502);
});
