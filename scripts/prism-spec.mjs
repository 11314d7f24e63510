// Prism (through @stoplight/http-spec) turns `nullable: true` into a `null` type and also appends `null`
// to the enum. Our spec must already list `null` in nullable enums, because express-openapi-validator's
// Ajv checks `enum` on its own; Prism then gets a duplicate enum item, fails to compile the schema and
// silently validates nothing for that operation. Prism's copy therefore drops `null` from such enums.
export function toPrismSpec(node) {
  if (Array.isArray(node)) return node.map(toPrismSpec);
  if (node === null || typeof node !== 'object') return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, toPrismSpec(value)]));
  if (copy.nullable === true && Array.isArray(copy.enum)) copy.enum = copy.enum.filter((value) => value !== null);
  return copy;
}
