import { asRecord } from '../../providers/upstream/parse-json.js';

/**
 * A Gemini `Schema` (https://ai.google.dev/api/caching#Schema, an OpenAPI 3.0 subset) as JSON Schema, for
 * upstreams that take function parameters and response schemas as JSON Schema. The shapes are close, so
 * this only rewrites what differs and copies everything else:
 * - `type` is an upper-case enum (`OBJECT`, `STRING`…) in Gemini, lower-case in JSON Schema
 *   (`TYPE_UNSPECIFIED` means no type);
 * - `nullable: true` becomes `null` among the types (or an `anyOf` branch when there is no type);
 * - `propertyOrdering` is Gemini's own and is left out.
 * Lower-case types (the Vercel AI SDK sends JSON Schema in `parameters`) pass through unchanged.
 *
 * @example
 * convertGeminiSchema({ type: 'OBJECT', properties: { city: { type: 'STRING', nullable: true } } })
 * // → { type: 'object', properties: { city: { type: ['string', 'null'] } } }
 */
export function convertGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    switch (key) {
      case 'type':
        if (typeof value === 'string' && value !== 'TYPE_UNSPECIFIED') converted.type = value.toLowerCase();
        break;
      case 'nullable':
      case 'propertyOrdering':
        break;
      case 'properties':
        converted.properties = mapValues(asRecord(value) ?? {}, convertValue);
        break;
      case 'items':
        converted.items = convertValue(value);
        break;
      case 'anyOf':
        converted.anyOf = Array.isArray(value) ? value.map(convertValue) : value;
        break;
      default:
        converted[key] = value;
    }
  }
  if (schema.nullable === true) return withNull(converted);
  return converted;
}

function convertValue(value: unknown): unknown {
  const record = asRecord(value);
  return record ? convertGeminiSchema(record) : value;
}

function withNull(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  const { description, ...rest } = schema;
  return { ...(description !== undefined && { description }), anyOf: [rest, { type: 'null' }] };
}

function mapValues(record: Record<string, unknown>, convert: (value: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, convert(value)]));
}
