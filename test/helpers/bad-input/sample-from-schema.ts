import { deref, type Json, type Operation, type Schema } from './spec-operations.js';

/**
 * A plausible value for a schema, for bodies the spec gives no example of: every property filled (so
 * mutations have fields to break), from `example`, `default`, `enum` or the type's smallest valid value.
 * Strings with a `pattern` are left out. Callers check the result against the schema.
 */
export function sampleFromSchema(schemaOrRef: unknown, depth = 0): Json | undefined {
  const schema = deref<Schema>(schemaOrRef);
  if ('example' in schema) return schema.example as Json;
  if ('default' in schema) return schema.default as Json;
  if (Array.isArray(schema.enum)) return schema.enum[0] as Json;
  for (const combinator of ['allOf', 'oneOf', 'anyOf'] as const) {
    const options = schema[combinator] as unknown[] | undefined;
    if (!options) continue;
    if (combinator !== 'allOf') return sampleFromSchema(options[0], depth + 1);
    return Object.assign({}, ...options.map((option) => sampleFromSchema(option, depth + 1))) as Json;
  }
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      if (depth > 4) return {};
      const entries = Object.entries(properties).map(([name, property]) => [name, sampleFromSchema(property, depth + 1)] as const);
      return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as Json;
    }
    case 'array': {
      const item = depth > 4 ? undefined : sampleFromSchema(schema.items, depth + 1);
      return item === undefined ? [] : [item];
    }
    case 'integer':
    case 'number':
      return Math.max(Number(schema.minimum ?? 1), 1);
    case 'boolean':
      return false;
    case 'string':
      // A pattern's language is not guessed: the property is left out.
      return schema.pattern ? undefined : 'x'.repeat(Number(schema.minLength ?? 1));
    default:
      return null;
  }
}

/** Valid JSON bodies of an operation: the spec's examples, or a sample of its schema where it has none. */
export function validBodiesOf(operation: Operation): Json[] {
  const { examples, schema } = operation.json!;
  return examples.length > 0 ? examples : [sampleFromSchema(schema) ?? {}];
}
