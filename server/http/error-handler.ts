import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { ProtocolFamily } from '../../generated/operations.js';
import type { GatewayError } from '../core/gateway-error.js';
import { contextOf } from '../core/request-context.js';
import { statusForFamily } from './status-for-family.js';
import { toGatewayError } from './to-gateway-error.js';

/**
 * The one error handler: every error ends here and leaves in the shape of the request's protocol family,
 * which the front door decided from the operation it matched (or, for a path that matched none, the closest).
 * A stream that already started cannot change its status, so protocol handlers deal with mid-stream
 * errors themselves; this handler only closes such a response.
 */
/** Per family, the error body its SDKs parse (protocols/registry.ts derives it from the client protocols). */
export type ErrorBodyRenderers = Readonly<Record<ProtocolFamily, (error: GatewayError) => unknown>>;

export function createErrorHandler(logger: Logger, errorBodies: ErrorBodyRenderers): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.destroyed && !res.writableFinished) {
      // The client left (the upstream call was cancelled for it): nobody is waiting and nothing went wrong.
      logger.debug({ err: error, requestId: res.getHeader('x-request-id') }, 'client left before the answer was complete');
      return;
    }
    const gatewayError = toGatewayError(error, req.body);
    if (gatewayError.status >= 500) {
      logger.error({ err: gatewayError.cause ?? gatewayError, requestId: res.getHeader('x-request-id') }, gatewayError.message);
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(gatewayError.headers ?? {})) res.setHeader(name, value);
    const family = contextOf(req).family;
    const body = errorBodies[family](gatewayError);
    try {
      res.status(statusForFamily(family, gatewayError)).json(body);
    } catch (validationError) {
      // Only response validation (tests, development) throws here: fail loudly, still in JSON.
      logger.error({ err: validationError }, 'error body does not match the contract');
      if (!res.headersSent) res.status(500).type('application/json').send(JSON.stringify(body));
    }
  };
}
