import type { RequestHandler } from 'express';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types.js';
import { GatewayError } from '../core/gateway-error.js';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Refuses query values such as `limit=Infinity` for the contract's integer and number parameters. The
 * validator coerces query text with Ajv, which turns `Infinity` into a number and then skips `minimum`
 * and `maximum`, since Ajv applies them to finite numbers only: `GET /v1/models?limit=-Infinity` passed a
 * parameter declared 1–1000 (found by test/bad-input-parameters.test.ts). Runs after the validator has
 * found the operation (`req.openapi.openApiRoute`).
 */
export function createFiniteQueryNumbers(spec: OpenAPIV3.DocumentV3): RequestHandler {
  const numericParameters = numericQueryParameters(spec);
  return (req, _res, next) => {
    const route = (req as typeof req & { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
    const names = route === undefined ? undefined : numericParameters.get(`${req.method.toLowerCase()} ${route}`);
    for (const name of names ?? []) {
      const values = [req.query[name]].flat();
      if (values.some((value) => typeof value === 'string' && !Number.isFinite(Number(value)))) {
        return next(new GatewayError('invalid_request', `/query/${name} must be a finite number`, { param: name, code: 'invalid_request' }));
      }
    }
    next();
  };
}

/** `'get /v1/models'` → the names of its query parameters typed integer or number. */
function numericQueryParameters(spec: OpenAPIV3.DocumentV3): Map<string, string[]> {
  const resolve = (parameter: OpenAPIV3.ReferenceObject | OpenAPIV3.ParameterObject) =>
    '$ref' in parameter ? spec.components?.parameters?.[parameter.$ref.replace('#/components/parameters/', '')] : parameter;
  const isNumeric = (schema: OpenAPIV3.ParameterObject['schema']) => schema !== undefined && 'type' in schema && (schema.type === 'integer' || schema.type === 'number');
  const found = new Map<string, string[]>();
  for (const [template, item] of Object.entries(spec.paths)) {
    for (const method of methods) {
      const names = (item[method]?.parameters ?? []).flatMap((declared) => {
        const parameter = resolve(declared);
        return parameter && !('$ref' in parameter) && parameter.in === 'query' && isNumeric(parameter.schema) ? [parameter.name] : [];
      });
      if (names.length > 0) found.set(`${method} ${template}`, names);
    }
  }
  return found;
}
