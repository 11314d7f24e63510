// Validates values against a schema of OpenAI's published document (JSON Schema 2020-12, read as
// as-json-schema-2020.ts explains), with the rules of known-deviations.ts not enforced. Compiling the
// document's schemas is the slow part, so each validator is compiled once per process and kept.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { asJsonSchema2020 } from './as-json-schema-2020.js';
import { describeErrors, pointersOf } from './describe-errors.js';
import { withDiscriminatedUnions } from './discriminated-unions.js';
import { knownDeviations, type KnownDeviation } from './known-deviations.js';
import { publishedSpec } from './published-spec.js';

export interface PublishedValidator {
  /** What is wrong with `value` as a `schemaName` (a name under `components.schemas`); empty when nothing. */
  violations(schemaName: string, value: unknown): string[];
}

const documentId = 'openai-published';
/**
 * Formats are annotations in 2020-12 (and OpenAI's include its own, such as `unixtime`); `discriminator`
 * only names the property the `oneOf`/`anyOf` beside it already decides by: neither is enforced. `verbose`
 * puts each failing rule's schema object and the failing value on the error (describeErrors).
 */
const ajvOptions = { strict: false, allErrors: true, verbose: true, validateFormats: false, validateSchema: false } as const;

/** `ajv`'s validator for a schema of the document, compiled at its first use. */
function compiledOnce(ajv: Ajv2020): (schemaName: string) => ValidateFunction {
  const compiled = new Map<string, ValidateFunction>();
  return (schemaName) => {
    let validate = compiled.get(schemaName);
    if (!validate) {
      validate = ajv.compile({ $ref: `${documentId}#/components/schemas/${schemaName}` });
      compiled.set(schemaName, validate);
    }
    return validate;
  };
}

/**
 * A validator over the published schemas with `allowed` not enforced. The tests use {@link publishedValidator};
 * the allow-list's own test makes one without it, to show that OpenAI's examples break exactly those rules.
 */
export function createPublishedValidator(allowed: readonly KnownDeviation[]): PublishedValidator {
  const schemas = asJsonSchema2020(publishedSpec().components.schemas);
  for (const deviation of allowed) relax(schemas, deviation);
  const ajv = new Ajv2020(ajvOptions);
  ajv.addSchema({ components: { schemas } }, documentId);
  const pointers = pointersOf(schemas);
  const verdicts = compiledOnce(ajv);
  // What a rejected value is checked against again, to say why (discriminated-unions.ts); made at the first failure.
  let explain: { validator: (schemaName: string) => ValidateFunction; originalOf: WeakMap<object, object> } | undefined;
  return {
    violations(schemaName, value) {
      if (!(schemaName in schemas)) throw new Error(`OpenAI's published spec has no schema ${schemaName}`);
      const verdict = verdicts(schemaName);
      if (verdict(value)) return [];
      if (!explain) {
        const diagnostic = withDiscriminatedUnions(schemas);
        const diagnosticAjv = new Ajv2020(ajvOptions);
        diagnosticAjv.addSchema({ components: { schemas: diagnostic.schemas } }, documentId);
        explain = { validator: compiledOnce(diagnosticAjv), originalOf: diagnostic.originalOf };
      }
      const why = explain.validator(schemaName);
      // The rewrite can accept what `oneOf` rejects (a value matching two branches); then Ajv's own errors say it.
      const { originalOf } = explain;
      return why(value) ? describeErrors(verdict.errors ?? [], pointers) : describeErrors(why.errors ?? [], pointers, (schema) => originalOf.get(schema) ?? schema);
    },
  };
}

let shared: PublishedValidator | undefined;

/** The validator the tests use: the published schemas minus the documented deviations. */
export function publishedValidator(): PublishedValidator {
  return (shared ??= createPublishedValidator(knownDeviations));
}

/** Throws, naming each path and rule, unless `value` is a valid `schemaName` of OpenAI's published spec. */
export function assertMatchesPublishedSchema(schemaName: string, value: unknown): void {
  const violations = publishedValidator().violations(schemaName, value);
  if (violations.length) throw new Error(`OpenAI's published ${schemaName} violated:\n  ${violations.join('\n  ')}\n${JSON.stringify(value).slice(0, 2000)}`);
}

/** Makes the schema a deviation names also accept what the deviation says (in place). */
function relax(schemas: Record<string, Record<string, unknown>>, deviation: KnownDeviation): void {
  const steps = deviation.schema.replace(/^\/components\/schemas\//, '').split('/').map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
  const name = steps.pop()!;
  let holder: unknown = schemas;
  for (const step of steps) holder = (holder as Record<string, unknown> | undefined)?.[step];
  const owner = holder as Record<string, unknown> | undefined;
  if (!owner || !(name in owner)) throw new Error(`known deviation ${deviation.schema}: no such schema in the published spec`);
  owner[name] = { anyOf: [owner[name], { type: deviation.alsoAccepts }] };
}
