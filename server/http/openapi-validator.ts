import { readFile } from 'node:fs/promises';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiRequest, OpenApiRequestHandler, OpenApiRequestMetadata, OpenAPIV3 } from 'express-openapi-validator/dist/framework/types.js';
import { operationRoutes, type OperationId } from '../../generated/operations.js';
import { projectRoot } from '../project-root.js';
import { createBodyPrecheck } from './body-precheck.js';
import { createFiniteQueryNumbers } from './finite-query-numbers.js';
import { contextOf } from '../core/request-context.js';
import { runMiddleware } from './run-middleware.js';

const specPath = join(projectRoot, 'generated/openapi.json');

/**
 * The bundled contract, as `npm run generate` writes it from openapi/openapi.yaml: an OpenAPI 3.0 document
 * (which the validator itself checks at start-up in tests and development, `validateApiSpec`).
 */
async function loadSpec(): Promise<OpenAPIV3.DocumentV3> {
  const spec: OpenAPIV3.DocumentV3 = JSON.parse(await readFile(specPath, 'utf8'));
  return spec;
}

/** The validator's options; also what the body pre-check derives its Ajv options from. */
export function contractValidatorOptions(apiSpec: OpenAPIV3.DocumentV3, validateResponses: boolean) {
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
export function openApiValidator(options: { validateResponses: boolean }): Promise<RequestHandler> {
  let validator = validators.get(options.validateResponses);
  if (!validator) {
    validator = createOpenApiValidator(options);
    validators.set(options.validateResponses, validator);
    validator.catch(() => validators.delete(options.validateResponses));
  }
  return validator;
}

/**
 * The validator of each mode, made once per process: it depends on the contract alone, and compiling it
 * takes about half a second of CPU (the validator's spec preprocessing, the body pre-check's schemas), which
 * every app of the process would otherwise pay again: a config reload, and the test suite's hundreds of
 * gateways. What it keeps between requests (schemas compiled on first use) holds for any app alike.
 */
const validators = new Map<boolean, Promise<RequestHandler>>();

async function createOpenApiValidator(options: { validateResponses: boolean }): Promise<RequestHandler> {
  const apiSpec = withoutExamples(await loadSpec());
  const validatorOptions = contractValidatorOptions(apiSpec, options.validateResponses);
  // Compiled from a copy taken before the validator preprocesses the spec in place.
  const precheck = createBodyPrecheck(structuredClone(apiSpec), validatorOptions);
  const finiteQueryNumbers = createFiniteQueryNumbers(apiSpec);
  const middleware = OpenApiValidator.middleware(validatorOptions);
  const step = (name: string) => {
    const found = middleware.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`express-openapi-validator no longer has a step named '${name}'`);
    return found;
  };
  const metadata = await operationMetadata(step('metadataMiddleware'));
  const setOperation: OpenApiRequestHandler = (req, _res, next) => {
    const context = contextOf(req);
    const found = context.operation && metadata.get(context.operation.operationId);
    if (!found) return next(new Error(`the contract validator has no operation for ${req.method} ${req.path}`));
    req.openapi = { ...found, pathParams: context.pathParams };
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

/**
 * What the validator's lookup puts on `req.openapi` for an operation, but its path parameters: its route
 * keys and schemas (and, when responses are checked, the response schemas its response step reads).
 */
type OperationMetadata = Omit<OpenApiRequestMetadata, 'pathParams'>;

/**
 * Runs the validator's own route lookup once per operation, on the operation's path with each parameter
 * filled in, and keeps what it found (without the sample parameters). Fails at start-up when the lookup
 * finds another template than the operation's: the two would then disagree about some request.
 */
async function operationMetadata(lookup: OpenApiRequestHandler): Promise<Map<OperationId, OperationMetadata>> {
  const found = new Map<OperationId, OperationMetadata>();
  for (const route of operationRoutes) {
    const path = route.path.replace(/\{[^}]+\}/g, 'sample');
    const match = await lookUpRoute(lookup, route.method.toUpperCase(), path);
    if (match?.openApiRoute !== route.path) {
      throw new Error(`the contract validator reads ${route.method.toUpperCase()} ${path} as ${String(match?.openApiRoute)}, not ${route.path}`);
    }
    const { pathParams: _sample, ...metadata } = match;
    found.set(route.operationId, metadata);
  }
  return found;
}

/**
 * What the validator's lookup finds for a request of `method` on `path`, asked as a request would ask it:
 * in an Express app (whose settings and request fields the lookup reads), on a request that reaches no
 * socket.
 */
function lookUpRoute(lookup: OpenApiRequestHandler, method: string, path: string): Promise<OpenApiRequestMetadata | undefined> {
  return new Promise((resolve, reject) => {
    const app = express();
    app.use(lookup);
    app.use((req: OpenApiRequest) => resolve(req.openapi));
    app.use((error: unknown, _req: Request, _res: Response, _next: NextFunction) => reject(error));
    const req = new IncomingMessage(new Socket());
    req.method = method;
    req.url = path;
    app(req, new ServerResponse(req));
  });
}

/**
 * The validator compiles media-type objects with Ajv in draft-04 mode, where an `id` inside an example
 * value reads as a schema ID and breaks compilation ("resolves to more than one schema"). Examples are for
 * people and Prism, not for validation, so the validator gets a copy without them.
 */
export function withoutExamples<Node>(node: Node): Node;
// A copy without `example` and `examples` is still the node it copies: both are optional wherever they
// may stand, so the overload above keeps its type.
export function withoutExamples(node: unknown): unknown {
  return copyWithoutExamples(node, false);
}

function copyWithoutExamples(node: unknown, underProperties: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => copyWithoutExamples(item, false));
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!underProperties && (key === 'example' || key === 'examples')) continue;
    copy[key] = copyWithoutExamples(value, !underProperties && key === 'properties');
  }
  return copy;
}
