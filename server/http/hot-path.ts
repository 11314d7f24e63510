import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import { operationRoutes } from '../../generated/operations.js';
import type { OperationHandlers } from '../../generated/operations.js';
import { splitModelPath } from './model-path.js';
import { runMiddleware } from './run-middleware.js';

/** Takes a request from Node's HTTP server: the hot path when it is a model call, else the Express app. */
export type RequestDispatch = (req: IncomingMessage, res: ServerResponse) => void;

export interface HotPathParts {
  app: Express;
  /** The app's middleware, in the app's order, that every model call passes through before its handler. */
  middleware: RequestHandler[];
  handlers: OperationHandlers;
  errorHandler: ErrorRequestHandler;
}

/**
 * Model calls (chat completions, responses, messages, count tokens, Gemini generation, image generation)
 * are most of a gateway's traffic, and Express's router is most of what such a call costs in the gateway
 * (layer after layer of path matching, parameter processing and prefix trimming: bench/README.md). So
 * they skip it: one Map lookup on the path picks the operation, then the same middleware the app runs
 * (request ID, log line, auth, body, metering, contract validation) and the operation's own handler run in
 * order, and any error goes to the app's one error handler. Every other request goes to the Express app.
 * Requests and responses already carry Express's prototypes (gateway-server.ts), so handlers see the same
 * `req`/`res` either way.
 */
export function createHotPathDispatch({ app, middleware, handlers, errorHandler }: HotPathParts): RequestDispatch {
  const chains = new Map<string, RequestHandler[]>();
  for (const route of operationRoutes) {
    if (!hotOperations.has(route.operationId)) continue;
    chains.set(route.path, [...middleware, handlers[route.operationId] as unknown as RequestHandler]);
  }

  return (incoming, outgoing) => {
    const chain = incoming.method === 'POST' ? chains.get(operationPath(incoming.url ?? '')) : undefined;
    if (!chain) return app(incoming as Request, outgoing as Response);
    const req = incoming as Request;
    const res = outgoing as Response;
    // What Express's app.handle and router set up before the first middleware runs.
    req.res = res;
    res.req = req;
    res.locals = Object.create(null) as Response['locals'];
    req.baseUrl = '';
    req.originalUrl = req.url;
    req.params = {};
    runMiddleware(chain, req, res, (error) =>
      errorHandler(error ?? new Error(`the hot path for ${req.path} ended without an answer`), req, res, () => undefined),
    );
  };
}

/** The model calls with a JSON body (image edits are multipart and keep their upload parser in the app). */
const hotOperations = new Set<keyof OperationHandlers>([
  'createChatCompletion',
  'createResponse',
  'createMessage',
  'countMessageTokens',
  'createImage',
  'generateContent',
  'streamGenerateContent',
  'countTokens',
  'generateContentV1',
  'streamGenerateContentV1',
  'countTokensV1',
]);

/** The spec path an incoming URL is for: itself, or the Gemini route template with `{model}`. */
function operationPath(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.includes(':')) return path;
  const model = splitModelPath(path);
  return model?.action ? `/${model.version}/models/{model}:${model.action}` : path;
}
