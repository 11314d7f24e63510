// Assertions every protocol suite makes of what the upstream received, in the upstream's own terms.
import assert from 'node:assert/strict';
import { upstreamModel } from '../upstream-gateway.js';
import type { ToolCallAnswer, UpstreamSide } from './profile.js';
import type { Received } from './wire-readers.js';

/** The call went to the provider's path for the upstream model, streamed or not, with its credentials. */
export function assertReachedUpstream(side: UpstreamSide, request: Received, streamed: boolean): void {
  assert.equal(request.url, side.path(streamed));
  assert.ok(side.authenticated(request), `the upstream's credentials reached the upstream: ${JSON.stringify(request.headers)}`);
  assert.equal(side.modelOf(request), upstreamModel);
  assert.equal(side.wire.streamed(request), streamed, streamed ? 'asked for a stream' : 'asked for a whole answer');
}

/**
 * The last call came back as `answer` replayed it (name, input, and the signature the upstream needs
 * back), its result matched to it by ID (or by name where the wire has no IDs), holding `content`.
 * `callId` is the ID the client saw, where it reaches the upstream unchanged.
 */
export function assertToolResultSent(side: UpstreamSide, request: Received, expected: { answer: ToolCallAnswer; content: unknown; callId?: string }): void {
  const { call, result } = side.wire.toolExchange(request);
  assert.equal(call.name, expected.answer.name);
  assert.deepEqual(call.input, expected.answer.input);
  if (expected.answer.signature !== undefined) assert.equal(call.signature, expected.answer.signature, 'the signature came back with the call');
  if (call.id !== undefined || result.callId !== undefined) assert.equal(result.callId, call.id, 'the result answers the call');
  else assert.equal(result.name, call.name, 'the result answers the call');
  if (expected.callId !== undefined && call.id !== undefined) assert.equal(call.id, expected.callId);
  assert.deepEqual(result.content, expected.content);
}
