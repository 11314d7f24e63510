import type { Request } from 'express';
import { createRequestAjv } from 'express-openapi-validator/dist/framework/ajv/index.js';
import { OpenApiValidator } from 'express-openapi-validator/dist/openapi.validator.js';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types.js';
import { isPlainJsonType } from './json-body.js';

/** Says whether a request for the operation certainly passes the contract validator; `false` means "ask the validator". */
export type BodyPrecheck = (req: Request, operationId: string) => boolean;

type ValidatorOptions = ConstructorParameters<typeof OpenApiValidator>[0];

/**
 * Model calls without parameters (chat completions, responses, image generation) are checked here first,
 * against their JSON body schema, compiled once at start-up by express-openapi-validator's own Ajv factory
 * with the options it derives from ours (same draft, keywords, formats, defaults). Only a pass is final:
 * it lets the call skip the validator's per-request set-up (content-type parsing, parameter mutators, a
 * promise per step), about 5% of a model call's CPU (bench/README.md). Any other request, and any body
 * that fails here, goes through the validator, so every error a client sees is still the validator's own.
 * server/http/body-precheck.test.ts proves the two agree on valid bodies and on thousands of broken ones.
 * The factory and the options come from the validator's internal modules: an upgrade that moves them fails
 * at start-up, and one that changes what they mean fails that test.
 */
export function createBodyPrecheck(apiDoc: OpenAPIV3.DocumentV3, options: ValidatorOptions): BodyPrecheck {
  const ajvOptions = new OpenApiValidator(options).ajvOpts.request;
  const ajv = createRequestAjv(apiDoc, ajvOptions);
  const validators = new Map<string, (data: unknown) => boolean>();
  for (const item of Object.values(apiDoc.paths ?? {})) {
    const operation = item?.post;
    const body = operation?.requestBody as OpenAPIV3.RequestBodyObject | undefined;
    const schema = body?.content?.['application/json']?.schema;
    const parameters = [...(item?.parameters ?? []), ...(operation?.parameters ?? [])];
    if (!operation || !schema || parameters.length > 0 || Object.keys(body?.content ?? {}).length !== 1) continue;
    // The shape the validator compiles for a body (its RequestValidator's schemaBody), so `$ref`s resolve
    // against the same components and a required body is required here too.
    const validate = ajv.compile({
      components: apiDoc.components,
      properties: { body: schema },
      ...(body?.required ? { required: ['body'] } : {}),
    });
    validators.set(operation.operationId!, (data) => validate(data) as boolean);
  }

  return (req, operationId) => {
    // A query string means parameters the validator checks; only bodies are checked here.
    if (req.method !== 'POST' || req.url.includes('?') || !isPlainJsonType(req.headers['content-type'])) return false;
    const validate = validators.get(operationId);
    return validate !== undefined && validate({ body: req.body });
  };
}
