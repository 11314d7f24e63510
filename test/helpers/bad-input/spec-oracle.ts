import { Ajv, type ValidateFunction } from 'ajv';
import { withoutExamples } from '../../../server/http/openapi-validator.js';
import { spec, type Parameter, type Schema } from './spec-operations.js';

/**
 * The test's own judge of what the contract allows, independent of the gateway's validator: Ajv on the
 * spec's schemas. OpenAPI 3.0's `nullable` is understood by Ajv; formats are not enforced, so the judge
 * errs towards "valid", where the test only asks for "no 5xx".
 */
const components = withoutExamples(spec.components);
const strictAjv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
// Query and path values arrive as text: the gateway's validator coerces them to the declared type.
const coercingAjv = new Ajv({ strict: false, allErrors: false, validateFormats: false, coerceTypes: true });
for (const ajv of [strictAjv, coercingAjv]) ajv.addSchema({ components }, 'spec');
const compiled = new Map<string, ValidateFunction>();

/** Compiles a spec schema once; its `#/components/...` references point into the spec added above. */
function validatorFor(ajv: Ajv, schema: Schema): ValidateFunction {
  const text = JSON.stringify(withoutExamples(schema)).replaceAll('"#/components/', '"spec#/components/');
  const key = `${ajv === strictAjv ? 'strict' : 'coercing'} ${text}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(JSON.parse(text) as Schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** Whether a parsed request body satisfies the operation's body schema. */
export function bodyMatchesSchema(schema: Schema, value: unknown): boolean {
  return validatorFor(strictAjv, schema)(value) as boolean;
}

/** Whether a query, path or header value (as sent, before coercion) satisfies the parameter's schema. */
export function parameterMatchesSchema(parameter: Parameter, value: string | string[]): boolean {
  // Ajv coerces only properties of an object in place, so the value is wrapped in one.
  return validatorFor(coercingAjv, { type: 'object', properties: { value: parameter.schema } })({ value }) as boolean;
}

/** Whether an error body matches the schema the spec declares for that answer. */
export function errorMatchesSchema(schema: Schema, body: unknown): boolean {
  return validatorFor(strictAjv, schema)(body) as boolean;
}

/** A value nested deeper than this is refused whatever its schema says: the requirement's "deep nesting". */
export const deepNestingLevels = 1_000;

/**
 * How a JSON request body is judged, from its bytes alone: `refuse` (it must get a 4xx) when it is over
 * the body limit, not UTF-8, not JSON, nested absurdly deep or outside the schema; `either` (any answer but
 * a 5xx) when the schema allows it.
 */
export function judgeJsonBytes(bytes: Buffer, schema: Schema, limitBytes: number): { verdict: 'refuse' | 'either'; why: string } {
  if (bytes.length > limitBytes) return { verdict: 'refuse', why: 'over the body limit' };
  let value: unknown;
  try {
    // The gateway reads an empty body as `{}`, as body-parser does, so the contract names what is missing
    // (test/json-body.test.ts); where nothing is required, that is a valid body.
    value = bytes.length === 0 ? {} : JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { verdict: 'refuse', why: 'not UTF-8 JSON' };
  }
  if (depthExceeds(value, deepNestingLevels)) return { verdict: 'refuse', why: `nested over ${deepNestingLevels} levels` };
  return bodyMatchesSchema(schema, value) ? { verdict: 'either', why: 'schema-valid' } : { verdict: 'refuse', why: 'schema-invalid' };
}

/** Whether a parsed JSON value nests deeper than `levels`, without recursion (the value may be 500,000 deep). */
export function depthExceeds(value: unknown, levels: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > levels) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
