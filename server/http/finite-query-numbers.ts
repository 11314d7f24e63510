import type { RequestHandler } from 'express';
import { GatewayError } from '../core/gateway-error.js';

interface ParameterObject {
  $ref?: string;
  in?: string;
  name?: string;
  schema?: { type?: string };
}

interface SpecShape {
  paths: Record<string, Record<string, { parameters?: ParameterObject[] }>>;
  components?: { parameters?: Record<string, ParameterObject> };
}

/**
 * Refuses query values such as `limit=Infinity` for the contract's integer and number parameters. The
 * validator coerces query text with Ajv, which turns `Infinity` into a number and then skips `minimum`
 * and `maximum`, since Ajv applies them to finite numbers only: `GET /v1/models?limit=-Infinity` passed a
 * parameter declared 1–1000 (found by test/bad-input-parameters.test.ts). Runs after the validator has
 * found the operation (`req.openapi.openApiRoute`).
 */
export function createFiniteQueryNumbers(spec: SpecShape): RequestHandler {
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
function numericQueryParameters(spec: SpecShape): Map<string, string[]> {
  const resolve = (parameter: ParameterObject) =>
    parameter.$ref ? spec.components?.parameters?.[parameter.$ref.replace('#/components/parameters/', '')] ?? parameter : parameter;
  const found = new Map<string, string[]>();
  for (const [template, operations] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const names = (operation.parameters ?? [])
        .map(resolve)
        .filter((parameter) => parameter.in === 'query' && (parameter.schema?.type === 'integer' || parameter.schema?.type === 'number'))
        .map((parameter) => parameter.name!);
      if (names.length > 0) found.set(`${method} ${template}`, names);
    }
  }
  return found;
}
