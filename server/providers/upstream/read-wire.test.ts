import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import { openUnion } from './open-union.js';
import { readWire } from './read-wire.js';

const source = { providerId: 'up', wire: 'anthropic' };
const block = openUnion([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string() }),
]);
const event = z.object({ index: z.number(), blocks: z.array(block) });

function thrown(value: unknown): GatewayError {
  try {
    readWire(event, value, source, 'test event');
  } catch (error) {
    assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
    return error;
  }
  return assert.fail('the value was read');
}

describe('readWire', () => {
  it('returns the typed value, with fields no schema names dropped', () => {
    assert.deepEqual(readWire(event, { index: 1, blocks: [{ type: 'text', text: 'Hi', cache: true }], extra: { a: 1 } }, source, 'test event'), {
      index: 1,
      blocks: [{ type: 'text', text: 'Hi' }],
    });
  });

  it('throws a 502 upstream error the router may retry, naming the provider, the wire, the event and the fields at fault', () => {
    const error = thrown({ index: '1', blocks: [{ type: 'text' }] });
    assert.equal(error.kind, 'upstream');
    assert.equal(error.status, 502);
    assert.deepEqual(error.upstream, { providerId: 'up' });
    assert.equal(error.message, "The upstream provider 'up' (anthropic) sent a malformed test event: index: Invalid input: expected number, received string; blocks[0].text: required");
  });

  it('never quotes the values it refused', () => {
    const error = thrown({ index: 'sk-secret-value-1234', blocks: 'more secret text' });
    assert.doesNotMatch(error.message, /secret/);
  });

  it('names at most three problems', () => {
    const error = thrown({ blocks: [{ type: 'text' }, { type: 'text' }, { type: 'tool_use' }] });
    assert.equal(error.message.split('; ').length, 3, error.message);
  });
});

describe('openUnion', () => {
  it('reads an object of a type it does not know as (other), whatever its fields', () => {
    assert.deepEqual(block.parse({ type: 'web_search_tool_result', text: 42, content: [] }), { type: '(other)' });
    assert.deepEqual(block.parse({ text: 'no type at all' }), { type: '(other)' });
  });

  it('holds a known type to its schema, and refuses what is not an object', () => {
    assert.equal(block.safeParse({ type: 'tool_use', id: 'toolu_1' }).success, false);
    assert.equal(block.safeParse('text').success, false);
    assert.equal(block.safeParse(null).success, false);
  });
});
