import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { operationRoutes, type OperationId } from '../../generated/operations.js';
import { projectRoot } from '../project-root.js';
import { createBodyPrecheck } from './body-precheck.js';
import { createFiniteQueryNumbers } from './finite-query-numbers.js';
import { contextOf } from '../core/request-context.js';
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
    // Image uploads are parsed earlier, to disk and with our own limits and errors (http/image-upload.ts).
    fileUploader: false,
  } as const;
}

/**
 * express-openapi-validator wired for the gateway: every request is validated; responses only when
 * `validateResponses` (tests and development), because it costs a lot per call. Auth is our own
 * middleware (it renders protocol-specific errors), so the validator's security check is off.
 *
 * The validator would find each request's operation itself, by trying every route template of the spec
 * as a regular expression in turn, with Express's case-insensitive matching: a second router that could
 * disagree with the front door's. Instead the operation the front door matched (request-context.ts) is
 * handed to it: what the validator's own lookup says of each operation (its schema and route keys) is
 * asked once at start-up, for a canonical path of the operation, and set on each request with the
 * request's own path parameters. Bodies of model calls without parameters are pre-checked first
 * (body-precheck.ts); those that pass skip the request steps but not the response check.
 */
export async function createOpenApiValidator(options: { validateResponses: boolean }): Promise<RequestHandler> {
  const apiSpec = withoutExamples(await loadSpec()) as never;
  const validatorOptions = contractValidatorOptions(apiSpec, options.validateResponses);
  // Compiled from a copy taken before the validator preprocesses the spec in place.
  const precheck = createBodyPrecheck(structuredClone(apiSpec), validatorOptions);
  const finiteQueryNumbers = createFiniteQueryNumbers(apiSpec);
  const middleware = OpenApiValidator.middleware(validatorOptions) as unknown as RequestHandler[];
  const step = (name: string) => {
    const found = middleware.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`express-openapi-validator no longer has a step named '${name}'`);
    return found;
  };
  const metadata = await operationMetadata(step('metadataMiddleware'));
  const setOperation: RequestHandler = (req, _res, next) => {
    const context = contextOf(req);
    const found = context.operation && metadata.get(context.operation.operationId);
    if (!found) return next(new Error(`the contract validator has no operation for ${req.method} ${req.path}`));
    (req as typeof req & { openapi: OpenApiMatch }).openapi = { ...found, pathParams: context.pathParams };
    next();
  };
  const responseSteps = options.validateResponses ? [step('responseMiddleware')] : [];
  const steps = [setOperation, finiteQueryNumbers, step('requestMiddleware'), ...responseSteps];
  const afterPrecheck = [setOperation, ...responseSteps];
  return function validateAgainstContract(req, res, next) {
    const operationId = contextOf(req).operation?.operationId;
    runMiddleware(operationId !== undefined && precheck(req, operationId) ? afterPrecheck : steps, req, res, next);
  };
}

/** What the validator's lookup finds for an operation: its route keys and schemas. */
interface OperationMetadata {
  openApiRoute: string;
  [field: string]: unknown;
}

/** What the validator's lookup puts on `req.openapi` (and its request and response steps read). */
type OpenApiMatch = OperationMetadata & { pathParams: Record<string, string> };

/**
 * Runs the validator's own route lookup once per operation, on the operation's path with each parameter
 * filled in, and keeps what it found (without the sample parameters). Fails at start-up when the lookup
 * finds another template than the operation's: the two would then disagree about some request.
 */
async function operationMetadata(lookup: RequestHandler): Promise<Map<OperationId, OperationMetadata>> {
  const found = new Map<OperationId, OperationMetadata>();
  for (const route of operationRoutes) {
    const path = route.path.replace(/\{[^}]+\}/g, 'sample');
    const req = { method: route.method.toUpperCase(), url: path, originalUrl: path, path, baseUrl: '', headers: {}, app: { enabled: () => false } };
    await new Promise<void>((resolve, reject) => lookup(req as never, {} as never, (error?: unknown) => (error ? reject(error as Error) : resolve())));
    const { pathParams: _sample, ...match } = (req as typeof req & { openapi?: OpenApiMatch }).openapi ?? ({} as OpenApiMatch);
    if (match.openApiRoute !== route.path) {
      throw new Error(`the contract validator reads ${route.method.toUpperCase()} ${path} as ${String(match.openApiRoute)}, not ${route.path}`);
    }
    found.set(route.operationId, match);
  }
  return found;
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
