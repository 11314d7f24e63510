/**
 * Builds a value that conforms to a JSON Schema from a source text, so the built-in model can answer
 * structured-output requests and call tools with plausible arguments. Pure and deterministic.
 */
import { deriveNumber, deriveString } from './derive-scalar-from-text.js';
import { isSchema, pickType, resolveSchema, type Schema } from './resolve-schema.js';

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Past this nesting depth recursive schemas (trees, linked lists) stop growing: arrays get their minimum
 * item count and objects only their required properties.
 */
const GROWTH_DEPTH = 8;
/** A schema that requires infinite nesting has no finite instance; give up with null rather than recurse. */
const MAX_DEPTH = 64;

/**
 * Derives a value conforming to `schema` from `text`:
 * - objects fill every property in `properties`, required ones first, then the rest in declaration order;
 * - strings are the text (enum → first value, known `format`s → a fixed valid example, length limits kept);
 * - numbers and integers are the first number in the text or 0, kept within the bounds;
 * - booleans are true, null is null, arrays get one item (or `minItems`, or one per `prefixItems`);
 * - `anyOf`/`oneOf`/nullable types take the first non-null branch; local `$ref`s are followed;
 * - a schema that constrains nothing gives the text itself.
 *
 * @example
 * deriveJsonFromSchema({ type: 'object', properties: { city: { type: 'string' } } }, 'Paris')
 * // → { city: 'Paris' }
 */
export function deriveJsonFromSchema(schema: Record<string, unknown>, text: string): JsonValue {
  return derive(schema, schema, text, 0);
}

function derive(node: unknown, root: Schema, text: string, depth: number): JsonValue {
  if (depth > MAX_DEPTH) return null;
  const schema = resolveSchema(node, root);
  if ('const' in schema) return schema.const as JsonValue;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum as JsonValue[];
    return values.find((value) => value !== null) ?? null;
  }
  const type = pickType(schema);
  switch (type) {
    case 'object':
      return deriveObject(schema, root, text, depth);
    case 'array':
      return deriveArray(schema, root, text, depth);
    case 'string':
      return deriveString(schema, text);
    case 'number':
    case 'integer':
      return deriveNumber(schema, text, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return text;
  }
}

function deriveObject(schema: Schema, root: Schema, text: string, depth: number): JsonValue {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((key): key is string => typeof key === 'string')
    : [];
  const optional = depth < GROWTH_DEPTH ? Object.keys(properties).filter((key) => !required.includes(key)) : [];
  const value: { [key: string]: JsonValue } = {};
  for (const key of [...required, ...optional]) {
    // A required key without a schema of its own may hold anything: the text will do.
    value[key] = derive(Object.hasOwn(properties, key) ? properties[key] : {}, root, text, depth + 1);
  }
  return value;
}

function deriveArray(schema: Schema, root: Schema, text: string, depth: number): JsonValue {
  // `prefixItems` (2020-12) and array-form `items` (draft 4–2019) describe tuples: one value per position.
  const tuple = [schema.prefixItems, schema.items].find((entry): entry is unknown[] => Array.isArray(entry));
  if (tuple) return tuple.map((item) => derive(item, root, text, depth + 1));
  const minItems = typeof schema.minItems === 'number' ? Math.max(0, Math.ceil(schema.minItems)) : 0;
  const maxItems = typeof schema.maxItems === 'number' ? Math.max(0, Math.floor(schema.maxItems)) : Infinity;
  const count = Math.min(depth < GROWTH_DEPTH ? Math.max(1, minItems) : minItems, maxItems);
  return Array.from({ length: count }, () => derive(schema.items, root, text, depth + 1));
}
