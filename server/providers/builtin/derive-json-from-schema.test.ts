import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deriveJsonFromSchema } from './derive-json-from-schema.js';

const text = 'Weather in Paris is 21.5 degrees';

describe('deriveJsonFromSchema', () => {
  it('fills every property, required ones first', () => {
    const schema = {
      type: 'object',
      properties: { note: { type: 'string' }, city: { type: 'string' }, ok: { type: 'boolean' } },
      required: ['city'],
    };
    const value = deriveJsonFromSchema(schema, text);
    assert.deepEqual(value, { city: text, note: text, ok: true });
    assert.deepEqual(Object.keys(value as object), ['city', 'note', 'ok']);
  });

  it('respects enum, const, maxLength, minLength and formats', () => {
    assert.equal(deriveJsonFromSchema({ type: 'string', enum: ['celsius', 'fahrenheit'] }, text), 'celsius');
    assert.equal(deriveJsonFromSchema({ enum: [null, 3] }, text), 3);
    assert.equal(deriveJsonFromSchema({ const: 'fixed' }, text), 'fixed');
    assert.equal(deriveJsonFromSchema({ type: 'string', maxLength: 7 }, text), 'Weather');
    assert.equal(deriveJsonFromSchema({ type: 'string', minLength: 5 }, 'ab'), 'ab ab');
    assert.equal(deriveJsonFromSchema({ type: 'string', minLength: 2 }, ''), 'xx');
    assert.equal(deriveJsonFromSchema({ type: 'string', format: 'date' }, text), '2025-01-01');
    assert.equal(deriveJsonFromSchema({ type: 'string', format: 'email' }, text), 'user@example.com');
    assert.equal(deriveJsonFromSchema({ type: 'string', format: 'made-up' }, text), text);
  });

  it('takes the first number, within bounds', () => {
    assert.equal(deriveJsonFromSchema({ type: 'number' }, text), 21.5);
    assert.equal(deriveJsonFromSchema({ type: 'integer' }, text), 21);
    assert.equal(deriveJsonFromSchema({ type: 'number' }, 'no digits'), 0);
    assert.equal(deriveJsonFromSchema({ type: 'number' }, 'minus -3 here'), -3);
    assert.equal(deriveJsonFromSchema({ type: 'integer', maximum: 10 }, text), 10);
    assert.equal(deriveJsonFromSchema({ type: 'integer', minimum: 1 }, 'none'), 1);
    assert.equal(deriveJsonFromSchema({ type: 'integer', exclusiveMinimum: 0 }, 'none'), 1);
    assert.equal(deriveJsonFromSchema({ type: 'number', exclusiveMinimum: 0, maximum: 1 }, 'none'), 0.5);
    assert.equal(deriveJsonFromSchema({ type: 'number', minimum: 0.5 }, 'none'), 0.5);
    assert.equal(deriveJsonFromSchema({ type: 'integer', multipleOf: 5 }, text), 20);
    assert.equal(deriveJsonFromSchema({ type: 'number', multipleOf: 0.1 }, 'x 0.33'), 0.3);
  });

  it('gives booleans true, null null and arrays one item', () => {
    assert.equal(deriveJsonFromSchema({ type: 'boolean' }, text), true);
    assert.equal(deriveJsonFromSchema({ type: 'null' }, text), null);
    assert.deepEqual(deriveJsonFromSchema({ type: 'array', items: { type: 'integer' } }, text), [21]);
    assert.deepEqual(deriveJsonFromSchema({ type: 'array', items: { type: 'boolean' }, minItems: 2 }, text), [true, true]);
    assert.deepEqual(deriveJsonFromSchema({ type: 'array', maxItems: 0 }, text), []);
    const tuple = { type: 'array', prefixItems: [{ type: 'string', maxLength: 2 }, { type: 'boolean' }] };
    assert.deepEqual(deriveJsonFromSchema(tuple, text), ['We', true]);
  });

  it('picks the first non-null branch of nullable types, anyOf and oneOf', () => {
    assert.equal(deriveJsonFromSchema({ type: ['null', 'integer'] }, text), 21);
    assert.equal(deriveJsonFromSchema({ anyOf: [{ type: 'null' }, { type: 'boolean' }] }, text), true);
    assert.equal(deriveJsonFromSchema({ oneOf: [{ type: 'integer' }, { type: 'string' }] }, text), 21);
    assert.equal(deriveJsonFromSchema({ type: 'string', nullable: true, maxLength: 3 }, text), 'Wea');
  });

  it('merges allOf branches', () => {
    const schema = {
      allOf: [
        { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
        { properties: { b: { type: 'boolean' } } },
      ],
    };
    assert.deepEqual(deriveJsonFromSchema(schema, text), { a: 21, b: true });
  });

  it('resolves $ref into $defs and definitions', () => {
    const schema = {
      type: 'object',
      properties: { unit: { $ref: '#/$defs/Unit' }, place: { $ref: '#/definitions/Place' } },
      $defs: { Unit: { type: 'string', enum: ['c', 'f'] } },
      definitions: { Place: { type: 'object', properties: { lat: { type: 'number' } } } },
    };
    assert.deepEqual(deriveJsonFromSchema(schema, text), { unit: 'c', place: { lat: 21.5 } });
  });

  it('terminates on recursive schemas', () => {
    const schema = {
      $ref: '#/$defs/Node',
      $defs: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          required: ['name'],
        },
      },
    };
    const value = deriveJsonFromSchema(schema, 'n');
    let depth = 0;
    for (let node = value as { children?: unknown[] }; node.children?.length; node = node.children[0] as typeof node) depth++;
    assert.ok(depth > 0 && depth < 20, `depth ${depth}`);
    assert.equal(deriveJsonFromSchema({ $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/a' } } }, 'loop'), 'loop');
  });

  it('gives the text for schemas that constrain nothing', () => {
    assert.equal(deriveJsonFromSchema({}, text), text);
    assert.equal(deriveJsonFromSchema({ description: 'anything' }, text), text);
    assert.equal(deriveJsonFromSchema({ $ref: '#/$defs/missing' }, text), text);
  });
});
