import type { Request } from 'express';
import { GatewayError } from '../http/gateway-error.js';

/**
 * Handler for operations that are in the contract but not served yet: 501 in the route's protocol shape
 * (the error handler picks the shape), so clients get a clear answer rather than a 404.
 */
export function notImplemented(req: Request): never {
  throw new GatewayError('not_implemented', `${req.method} ${req.path} is not implemented by this gateway version yet.`);
}
