import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { withoutExamples } from '../../server/http/openapi-validator.js';

/**
 * Validates values against `components.schemas` of the generated spec. express-openapi-validator checks
 * only `res.json` bodies, so stream events (SSE frames) are checked with this in tests.
 */
const spec = withoutExamples(JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'))) as object;
// OpenAPI 3.0 schemas: `nullable` is understood by Ajv; vendor keywords and formats are not enforced here.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(spec, 'spec');
const compiled = new Map<string, ValidateFunction>();

export function assertMatchesSchema(schemaName: string, value: unknown): void {
  let validate = compiled.get(schemaName);
  if (!validate) {
    validate = ajv.compile({ $ref: `spec#/components/schemas/${schemaName}` });
    compiled.set(schemaName, validate);
  }
  if (!validate(value)) {
    throw new Error(`${schemaName} violated: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
  }
}
