import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import { operationRoutes, type OperationHandlers, type OperationRoute } from '../../../generated/operations.js';
import type { ClientProtocol } from '../../core/client-protocol.js';
import { GatewayError } from '../../core/gateway-error.js';
import { attachRequestContext, contextOf, type RequestContext } from '../../core/request-context.js';
import { emitAnswer } from '../emit-answer.js';
import { runMiddleware } from '../run-middleware.js';
import { familyOfRequest } from './family-of-request.js';
import type { OperationMatch, OperationTable } from './operation-table.js';

/** Takes a request from Node's HTTP server. */
export type RequestDispatch = (req: IncomingMessage, res: ServerResponse) => void;

export interface FrontDoorParts {
  /** The spec's operations, for the one match per request (the same table `refuseUnmatched` consults). */
  table: OperationTable;
  /** Serves what is no operation of the spec: the console and docs pages, and the 404 for anything else. */
  pages: Express;
  /** Run for every request, matched or not, before anything else: request ID, log line, request-target checks, CORS. */
  identify: RequestHandler[];
  /** The steps between matching and the handler for one operation: authentication, body, metering, validation. */
  stepsFor(route: OperationRoute): RequestHandler[];
  handlers: OperationHandlers;
  errorHandler: ErrorRequestHandler;
  /** The client protocol of an operation, for the request context (protocols/registry.ts); none for an operation that is no model call. */
  protocolOf(route: OperationRoute): ClientProtocol | undefined;
}

/**
 * The one front door. Every request is matched once against the operation table generated from the spec
 * (operation-table.ts says the matching rule), and that match decides everything after it: the family
 * whose error shape and credentials apply, the security requirement, whether and how the call is metered,
 * the schema it is validated against and the handler that answers. No later step looks at the path again;
 * they read the request context. A request that matches no operation goes to `pages` (the console and the
 * API reference, which Express serves), whose last step is the 404 in the closest family's shape.
 *
 * Requests and responses already carry Express's prototypes (gateway-server.ts), so handlers see the same
 * `req`/`res` they would under Express.
 */
export function createFrontDoor({ table, pages, identify, stepsFor, handlers, errorHandler, protocolOf }: FrontDoorParts): RequestDispatch {
  /** Per operation, everything a request for it runs through, its handler last. */
  const steps = new Map<string, RequestHandler[]>();
  for (const route of operationRoutes) {
    const handler = handlers[route.operationId] as unknown as (req: Request, res: Response, context: RequestContext) => unknown;
    steps.set(route.operationId, [...identify, ...stepsFor(route), (req, res) => handled(contextOf(req), handler(req, res, contextOf(req))) as void]);
  }
  const unmatchedSteps: RequestHandler[] = [...identify, (req, res) => pages(req, res)];

  return (incoming, outgoing) => {
    const req = incoming as Request;
    const res = outgoing as Response;
    // Matched first, so that even the request-target checks of `identify` answer in the right family's shape.
    const match = table.match(req.method, req.url);
    const context = beginRequest(req, res, match, { table, protocolOf });
    runMiddleware(match ? steps.get(match.route.operationId)! : unmatchedSteps, req, res, (error) => {
      // A step before the handler ended the request: no upstream work will follow.
      context.work.finish();
      errorHandler(error ?? new Error(`${req.method} ${req.path} ended without an answer`), req, res, () => undefined);
    });
  };
}

/**
 * What every request gets before its first step: Express's links between request and response, and the
 * request context with what the match decided (the operation, its protocol and family) and the emit step.
 * The WebSocket handshake (upgrade-door.ts) begins its request the same way.
 */
export function beginRequest(req: Request, res: Response, match: OperationMatch | undefined, { table, protocolOf }: Pick<FrontDoorParts, 'table' | 'protocolOf'>): RequestContext {
  // What Express's app.handle and router set up before the first middleware runs.
  req.res = res;
  res.req = req;
  res.locals = Object.create(null) as Response['locals'];
  req.baseUrl = '';
  req.originalUrl = req.url;
  req.params = {};
  const context = attachRequestContext(req);
  // Made here, apart from the dispatch function and its other closures: made inside that function and kept
  // in the request context, it made V8 keep each request's objects through young-generation GCs (measured
  // with `npm run bench:alloc`: 9.3 KB promoted per request instead of 1.5; bench/README.md).
  context.emit = (answer, form) => emitAnswer(res, context, answer, form);
  if (match) {
    context.operation = match.route;
    context.protocol = protocolOf(match.route);
    context.pathParams = match.pathParams;
    context.family = familyOfRequest(match.route, req);
    req.params = match.pathParams;
  } else {
    const closest = table.familyOfUnmatched(req.url);
    context.family = closest.route ? familyOfRequest(closest.route, req) : closest.family;
  }
  return context;
}

/**
 * Marks the request's work done once its handler has returned or thrown: metering waits for it before
 * it records a request whose client left (core/request-work.ts).
 */
function handled(context: RequestContext, result: unknown): unknown {
  const finish = () => context.work.finish();
  // The handler's own promise goes back to the middleware chain, which reports its rejection: told first,
  // the work is finished before that, as `finally` would, without its extra promises per request.
  if (result instanceof Promise) result.then(finish, finish);
  else finish();
  return result;
}

/**
 * The last step of `pages`: a target that is no operation, as a 404 in the family's shape that says what
 * the gateway has instead when the spelling is all that is wrong.
 */
export function refuseUnmatched(table: OperationTable): RequestHandler {
  return (req) => {
    const { route } = table.familyOfUnmatched(req.originalUrl);
    const method = route?.method.toUpperCase();
    const hint = !route ? '' : method === req.method ? ` Did you mean ${route.path}? Paths are case-sensitive.` : ` Did you mean ${method} ${route.path}?`;
    throw new GatewayError('not_found', `No operation ${req.method} ${req.originalUrl.split('?')[0]!.slice(0, 200)}.${hint} See /openapi.yaml for the operations this gateway serves.`, {
      code: 'unknown_url',
    });
  };
}
