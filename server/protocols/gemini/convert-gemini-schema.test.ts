import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convertGeminiSchema } from './convert-gemini-schema.js';

describe('convertGeminiSchema', () => {
  it('lower-cases the OpenAPI-style types at every depth and keeps the rest', () => {
    const schema = {
      type: 'OBJECT',
      description: 'Where',
      properties: {
        location: { type: 'STRING', description: 'City', enum: ['Paris', 'Rome'] },
        days: { type: 'ARRAY', items: { type: 'INTEGER', minimum: 1 }, maxItems: 7 },
      },
      required: ['location'],
      propertyOrdering: ['location', 'days'],
    };
    assert.deepEqual(convertGeminiSchema(schema), {
      type: 'object',
      description: 'Where',
      properties: {
        location: { type: 'string', description: 'City', enum: ['Paris', 'Rome'] },
        days: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 7 },
      },
      required: ['location'],
    });
  });

  it('turns nullable into a null type, or an anyOf branch when the schema has no type', () => {
    assert.deepEqual(convertGeminiSchema({ type: 'NUMBER', nullable: true }), { type: ['number', 'null'] });
    assert.deepEqual(convertGeminiSchema({ description: 'x', anyOf: [{ type: 'STRING' }, { type: 'BOOLEAN' }], nullable: true }), {
      description: 'x',
      anyOf: [{ anyOf: [{ type: 'string' }, { type: 'boolean' }] }, { type: 'null' }],
    });
  });

  it('leaves JSON Schema (lower-case types) as it is, and drops TYPE_UNSPECIFIED', () => {
    const json = { type: 'object', properties: { a: { type: 'string', format: 'date-time' } }, additionalProperties: false };
    assert.deepEqual(convertGeminiSchema(json), json);
    assert.deepEqual(convertGeminiSchema({ type: 'TYPE_UNSPECIFIED', description: 'any' }), { description: 'any' });
  });
});
