// For explaining a failure only, never for deciding one. Most unions of OpenAI's spec (stream events,
// output items, content parts, tools) are told apart by a `type` property, but a validator checks a
// value against every branch and reports every branch's complaints: dozens of "missing `response_id`"
// from the audio events for a text delta that lacks one field. Rewritten here, each such union checks a
// value only against the branch its `type` names (`if type is X then <branch X>`), so the errors left are
// those of the branch the value meant. published-validator.ts uses this copy to describe a value the
// document as published has already rejected.

type Schema = Record<string, unknown>;

const unionKeywords = ['anyOf', 'oneOf'] as const;

/**
 * A copy of `schemas` with every union whose branches each name their own `type` values rewritten, and
 * for each copied schema object the original it was copied from (so errors can name the published rule).
 */
export function withDiscriminatedUnions(schemas: Record<string, Schema>): { schemas: Record<string, Schema>; originalOf: WeakMap<object, object> } {
  const originalOf = new WeakMap<object, object>();
  const resolve = (schema: Schema): Schema => {
    const ref = schema.$ref;
    return typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? (schemas[ref.slice('#/components/schemas/'.length)] ?? schema) : schema;
  };
  const typeValues = (branch: Schema, depth = 0): string[] | undefined => {
    if (depth > 8) return undefined;
    const schema = resolve(branch);
    if (schema !== branch) return typeValues(schema, depth + 1);
    const rule = (schema.properties as Record<string, Schema> | undefined)?.type;
    if (rule) return typeof rule.const === 'string' ? [rule.const] : Array.isArray(rule.enum) && rule.enum.every((value) => typeof value === 'string') ? (rule.enum as string[]) : undefined;
    for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
      const found = typeValues(part, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node;
    const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'enum' || key === 'const' ? value : rewrite(value)])) as Schema;
    originalOf.set(copy, node);
    for (const keyword of unionKeywords) {
      const branches = copy[keyword];
      if (!Array.isArray(branches) || branches.length < 2) continue;
      const values = branches.map((branch) => typeValues(branch as Schema));
      if (values.some((found) => !found)) continue;
      // Several branches may share a `type` (input and output messages are both `message`): a value of
      // that type must then match one of them.
      const branchesOf = new Map<string, unknown[]>();
      values.forEach((found, index) => found!.forEach((value) => branchesOf.set(value, [...(branchesOf.get(value) ?? []), branches[index]])));
      delete copy[keyword];
      // A `type` no branch has is the union's own complaint: its check stands for the union.
      const typeCheck = { enum: [...branchesOf.keys()] };
      originalOf.set(typeCheck, node);
      copy.allOf = [
        ...((copy.allOf as unknown[] | undefined) ?? []),
        { type: 'object', required: ['type'], properties: { type: typeCheck } },
        ...[...branchesOf].map(([value, meant]) => ({ if: { properties: { type: { const: value } }, required: ['type'] }, then: meant.length === 1 ? meant[0] : { anyOf: meant } })),
      ];
    }
    return copy;
  };
  return { schemas: rewrite(schemas) as Record<string, Schema>, originalOf };
}
