// OpenAI's document says `openapi: 3.1.0`, so its schemas are JSON Schema 2020-12, but it still writes
// a few things the OpenAPI 3.0 way. Each is rewritten to the 2020-12 form that says what the authors meant,
// so that a 2020-12 validator checks what they meant rather than ignoring or misreading it:
// - `nullable: true` (110 schemas) is no 2020-12 keyword and would be ignored, making every such field
//   reject `null`; it becomes "this schema or null" (`type: [t, 'null']`, or `anyOf` with `{type: 'null'}`).
// - `exclusiveMinimum: true` beside `minimum` (3.0's boolean form) becomes `exclusiveMinimum: <minimum>`.
// - `$recursiveRef: '#'` with `$recursiveAnchor` (draft 2019-09, which 2020-12 replaced) points at the
//   component that holds it, which is what it resolves to there; it becomes a plain `$ref` to that component.
// Nothing else changes: every other rule is checked as published.

type Schema = Record<string, unknown>;

/** Keywords whose value is a map of name → schema. */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keywords whose value is one schema. */
const schemaValued = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties']);
/** Keywords whose value is a list of schemas. */
const schemaLists = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** `components.schemas` rewritten as above (a new object; the argument is not changed). */
export function asJsonSchema2020(schemas: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, rewrite(schema, `#/components/schemas/${name}`) as Schema]));
}

function rewrite(node: unknown, component: string): unknown {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const schema: Schema = {};
  for (const [keyword, value] of Object.entries(node as Schema)) {
    if (keyword === '$recursiveAnchor') continue;
    if (keyword === '$recursiveRef') schema.$ref = value === '#' ? component : value;
    else if (schemaMaps.has(keyword) && isObject(value)) schema[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, rewrite(child, component)]));
    else if (schemaValued.has(keyword)) schema[keyword] = rewrite(value, component);
    else if (schemaLists.has(keyword) && Array.isArray(value)) schema[keyword] = value.map((child) => rewrite(child, component));
    else schema[keyword] = value;
  }
  for (const bound of ['Minimum', 'Maximum'] as const) {
    const exclusive = `exclusive${bound}`;
    const inclusive = bound.toLowerCase();
    if (schema[exclusive] === true && typeof schema[inclusive] === 'number') {
      schema[exclusive] = schema[inclusive];
      delete schema[inclusive];
    } else if (schema[exclusive] === false) delete schema[exclusive];
  }
  return orNull(schema);
}

/** Reads `nullable: true` as "or null"; drops `nullable` either way. */
function orNull(schema: Schema): Schema {
  if (!('nullable' in schema)) return schema;
  const { nullable, ...rest } = schema;
  if (nullable !== true) return rest;
  const constraints = Object.keys(rest).filter((keyword) => !isAnnotation(keyword));
  if (constraints.length === 0) return rest; // `{nullable: true}` alone already accepts anything
  if (typeof rest.type === 'string' && !('const' in rest)) {
    const enumWithNull = Array.isArray(rest.enum) && !rest.enum.includes(null) ? { enum: [...rest.enum, null] } : {};
    return { ...rest, type: [rest.type, 'null'], ...enumWithNull };
  }
  // `$ref`, `anyOf`, `oneOf`, … : the whole schema or null, annotations kept outside for readers.
  const annotations = Object.fromEntries(Object.entries(rest).filter(([keyword]) => isAnnotation(keyword)));
  const inner = Object.fromEntries(Object.entries(rest).filter(([keyword]) => !isAnnotation(keyword)));
  return { ...annotations, anyOf: [inner, { type: 'null' }] };
}

function isAnnotation(keyword: string): boolean {
  return keyword.startsWith('x-') || ['title', 'description', 'default', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'discriminator', '$comment'].includes(keyword);
}

function isObject(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
