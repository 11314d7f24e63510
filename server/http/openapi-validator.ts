import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { projectRoot } from '../project-root.js';
import { createBodyPrecheck } from './body-precheck.js';
import { createFiniteQueryNumbers } from './finite-query-numbers.js';
import { runMiddleware } from './run-middleware.js';

const specPath = join(projectRoot, 'generated/openapi.json');

/** The bundled contract, as generated from openapi/openapi.yaml. */
async function loadSpec(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(specPath, 'utf8')) as Record<string, unknown>;
}

/** The validator's options; also what the body pre-check derives its Ajv options from. */
export function contractValidatorOptions(apiSpec: never, validateResponses: boolean) {
  return {
    apiSpec,
    validateRequests: { allowUnknownQueryParameters: true, removeAdditional: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: validateResponses,
    // We rewrite req.url to encode slashes in model IDs (see model-path.ts); match on the rewritten URL.
    useRequestUrl: true,
    // Image uploads are parsed earlier, to disk and with our own limits and errors (http/image-upload.ts).
    fileUploader: false,
  } as const;
}

/**
 * express-openapi-validator wired for the gateway: every request is validated; responses only when
 * `validateResponses` (tests and development), because it costs a lot per call. Auth is our own
 * middleware (it renders protocol-specific errors), so the validator's security check is off. Bodies of
 * model calls without parameters are pre-checked first (body-precheck.ts); those that pass skip the
 * request steps but not the response check.
 */
export async function createOpenApiValidator(options: { validateResponses: boolean }): Promise<RequestHandler> {
  const apiSpec = withoutExamples(await loadSpec()) as never;
  const validatorOptions = contractValidatorOptions(apiSpec, options.validateResponses);
  // Compiled from a copy taken before the validator preprocesses the spec in place.
  const precheck = createBodyPrecheck(structuredClone(apiSpec), validatorOptions);
  const finiteQueryNumbers = createFiniteQueryNumbers(apiSpec);
  const middleware = OpenApiValidator.middleware(validatorOptions) as unknown as RequestHandler[];
  // The response check finds its schema through the operation the lookup step found.
  const responseSteps = options.validateResponses ? ['metadataMiddleware', 'responseMiddleware'] : [];
  for (const name of ['metadataMiddleware', ...responseSteps]) {
    if (!middleware.some((step) => step.name === name)) throw new Error(`express-openapi-validator no longer has a step named '${name}'`);
  }
  const lookup = rememberRouteLookups(middleware.find((step) => step.name === 'metadataMiddleware')!);
  // Once the operation is known, before the request validator coerces the query (see finite-query-numbers.ts).
  const steps = middleware.flatMap((step) => (step.name === 'metadataMiddleware' ? [lookup, finiteQueryNumbers] : [step]));
  const afterPrecheck = middleware.filter((step) => responseSteps.includes(step.name)).map((step) => (step.name === 'metadataMiddleware' ? lookup : step));
  return function validateAgainstContract(req, res, next) {
    runMiddleware(precheck(req) ? afterPrecheck : steps, req, res, next);
  };
}

const rememberedLookups = 1_000;

/**
 * The validator finds a request's operation by compiling every route template of the spec to a regular
 * expression and trying each in turn, on every request (its `lookupRoute`): the costliest step of a model
 * call after the network (bench/README.md). The answer depends only on the method and path, so the
 * operation it found is remembered per method and path (the most recent 1,000) and set again on the next
 * request, each time as a fresh copy, since later steps may write to it. Only found operations are
 * remembered; unknown paths and wrong methods take the validator's own path to their errors every time.
 */
function rememberRouteLookups(lookup: RequestHandler): RequestHandler {
  const found = new Map<string, OpenApiMatch>();
  return (req, res, next) => {
    const queryAt = req.url.indexOf('?');
    const key = `${req.method} ${queryAt === -1 ? req.url : req.url.slice(0, queryAt)}`;
    const match = found.get(key);
    if (match) {
      const request = req as typeof req & { openapi: OpenApiMatch };
      request.openapi = { ...match, pathParams: { ...match.pathParams } };
      req.params = request.openapi.pathParams;
      return next();
    }
    return lookup(req, res, (error?: unknown) => {
      const openapi = (req as typeof req & { openapi?: OpenApiMatch }).openapi;
      if (error === undefined && openapi) {
        if (found.size >= rememberedLookups) found.delete(found.keys().next().value!);
        found.set(key, { ...openapi, pathParams: { ...openapi.pathParams } });
      }
      next(error);
    });
  };
}

/** What the validator's lookup puts on `req.openapi` (and the request validator reads). */
interface OpenApiMatch {
  pathParams: Record<string, string>;
  [field: string]: unknown;
}

/**
 * The validator compiles media-type objects with Ajv in draft-04 mode, where an `id` inside an example
 * value reads as a schema ID and breaks compilation ("resolves to more than one schema"). Examples are for
 * people and Prism, not for validation, so the validator gets a copy without them.
 */
export function withoutExamples(node: unknown, underProperties = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutExamples(item));
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!underProperties && (key === 'example' || key === 'examples')) continue;
    copy[key] = withoutExamples(value, !underProperties && key === 'properties');
  }
  return copy;
}
