// What the published-spec oracle says when a value breaks a rule: one line per problem, naming the path
// in the value and the rule by its JSON pointer in OpenAI's document (the form known-deviations.ts uses).
import type { ErrorObject } from 'ajv/dist/2020.js';

/**
 * Where each schema object sits in the document (`/components/schemas/OutputTextContent`), so that an
 * error names its rule by the same JSON pointer the allow-list uses.
 */
export function pointersOf(schemas: Record<string, unknown>): WeakMap<object, string> {
  const pointers = new WeakMap<object, string>();
  const visit = (node: unknown, pointer: string) => {
    if (node === null || typeof node !== 'object' || pointers.has(node)) return;
    pointers.set(node, pointer);
    for (const [key, child] of Object.entries(node)) visit(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  visit(schemas, '/components/schemas');
  return pointers;
}

/**
 * Ajv's errors as `<path in the value>: <what> (rule <pointer to the keyword>)`. A value that fails a
 * union (`anyOf`/`oneOf`, as every event, item and content part type is) gets errors from every branch;
 * those of branches whose `type` property does not accept the value's `type`, the unions' own summaries,
 * and the "must be null" of the null branch of a nullable value are left out while anything else is left,
 * so the message names what is wrong in the branch the value meant.
 */
export function describeErrors(errors: readonly ErrorObject[], pointers: WeakMap<object, string>, original = (schema: object) => schema): string[] {
  const meant = errors.filter((error) => !isUnionSummary(error) && !isNullBranch(error) && !isOtherBranch(error));
  const shown = meant.length ? meant : errors;
  const lines = shown.map((error) => {
    const schema = error.parentSchema ? original(error.parentSchema) : undefined;
    const owner = schema ? pointers.get(schema) : undefined;
    // A check that stands for a union (discriminated-unions.ts) is named as the union's `anyOf`/`oneOf`.
    const keyword = schema && !(error.keyword in schema) ? (['anyOf', 'oneOf'].find((union) => union in schema) ?? error.keyword) : error.keyword;
    const rule = owner ? `${owner}/${keyword}` : error.schemaPath;
    return `${error.instancePath || '/'}: ${error.message}${describeParams(error)} (rule ${rule})`;
  });
  return [...new Set(lines)].slice(0, 8);
}

/** "must match a schema in anyOf" and the like: the branches' own errors say more. Not so a `oneOf` that matched two. */
const isUnionSummary = (error: ErrorObject) => ['anyOf', 'oneOf', 'if'].includes(error.keyword) && !(error.params as { passingSchemas?: unknown }).passingSchemas;
const isNullBranch = (error: ErrorObject) => error.keyword === 'type' && (error.params as { type?: unknown }).type === 'null';

/** An error of a union branch for another `type` than the value's (or the `type` mismatch itself). */
function isOtherBranch(error: ErrorObject): boolean {
  if (/\/type$/.test(error.instancePath) && (error.keyword === 'enum' || error.keyword === 'const')) return true;
  const typeRule = (error.parentSchema?.properties as Record<string, { enum?: unknown[]; const?: unknown }> | undefined)?.type;
  const data = error.data as { type?: unknown } | undefined;
  if (!typeRule || data === null || typeof data !== 'object' || !('type' in data)) return false;
  if (Array.isArray(typeRule.enum)) return !typeRule.enum.includes(data.type);
  return 'const' in typeRule && typeRule.const !== data.type;
}

function describeParams(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'enum') {
    const values = params.allowedValues as unknown[];
    return ` ${JSON.stringify(values.slice(0, 12)).slice(0, -1)}${values.length > 12 ? `, … ${values.length} in all]` : ']'}`;
  }
  if (error.keyword === 'additionalProperties') return ` '${String(params.additionalProperty)}'`;
  if (error.keyword === 'oneOf' && Array.isArray(params.passingSchemas)) {
    const branches = (error.parentSchema?.oneOf ?? []) as Array<{ $ref?: string }>;
    return `, but matched ${params.passingSchemas.map((index: number) => branches[index]?.$ref?.split('/').pop() ?? `branch ${index}`).join(' and ')}`;
  }
  return '';
}
