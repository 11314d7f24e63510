/**
 * Reduces a JSON Schema node to the one concrete shape an answer should take: `$ref`s followed, the first
 * non-null `anyOf`/`oneOf` branch chosen, `allOf` branches merged. Pure; never fetches remote `$ref`s.
 */

/** A JSON Schema object node (boolean schemas are treated as the empty schema). */
export type Schema = Record<string, unknown>;

/** Recursive `$ref` chains and nested combinators stop here instead of overflowing the stack. */
const MAX_HOPS = 32;

/**
 * Resolves `schema` against `root` (the document that `#/$defs/…` and `#/definitions/…` point into).
 * Keywords written beside a `$ref` or a combinator are kept, as JSON Schema 2019-09 and later allow.
 *
 * @example resolveSchema({ $ref: '#/$defs/a' }, { $defs: { a: { type: 'string' } } }) // → { type: 'string' }
 */
export function resolveSchema(schema: unknown, root: Schema, hops = 0): Schema {
  if (!isSchema(schema) || hops > MAX_HOPS) return {};
  const { $ref, ...withoutRef } = schema;
  if (typeof $ref === 'string') return resolveSchema({ ...resolvePointer(root, $ref), ...withoutRef }, root, hops + 1);
  const { anyOf, oneOf, allOf, ...rest } = withoutRef;
  const branches = Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : undefined;
  if (branches && branches.length > 0) {
    const resolved = branches.map((branch) => resolveSchema(branch, root, hops + 1));
    const chosen = resolved.find((branch) => !isNullSchema(branch)) ?? resolved[0];
    return resolveSchema({ ...rest, ...chosen, allOf }, root, hops + 1);
  }
  if (Array.isArray(allOf) && allOf.length > 0) {
    return allOf.map((branch) => resolveSchema(branch, root, hops + 1)).reduce(mergeSchemas, rest);
  }
  return rest;
}

/**
 * The type an answer should have: the first non-null entry of `type`, else inferred from the keywords
 * present; undefined when the schema says nothing (any value is valid).
 */
export function pickType(schema: Schema): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const named = type.filter((entry): entry is string => typeof entry === 'string');
    return named.find((entry) => entry !== 'null') ?? named[0];
  }
  if (isSchema(schema.properties) || 'required' in schema) return 'object';
  if ('items' in schema || 'prefixItems' in schema) return 'array';
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => k in schema)) {
    return 'number';
  }
  if (['minLength', 'maxLength', 'format', 'pattern'].some((k) => k in schema)) return 'string';
  return undefined;
}

/** Narrows an unknown JSON value to a schema object. */
export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullSchema(schema: Schema): boolean {
  return schema.type === 'null' || ('const' in schema && schema.const === null);
}

/** Follows a local JSON Pointer (RFC 6901), e.g. `#/$defs/Address`; unresolvable pointers give `{}`. */
function resolvePointer(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#')) return {};
  let node: unknown = root;
  for (const token of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isSchema(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  }
  return isSchema(node) ? node : {};
}

/** allOf means "all of these at once": properties and required lists combine, other keywords the last wins. */
function mergeSchemas(into: Schema, next: Schema): Schema {
  const properties = { ...asSchema(into.properties), ...asSchema(next.properties) };
  const required = [...asArray(into.required), ...asArray(next.required)];
  const merged: Schema = { ...into, ...next };
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

function asSchema(value: unknown): Schema {
  return isSchema(value) ? value : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
