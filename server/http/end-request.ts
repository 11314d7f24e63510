import type { ServerResponse } from 'node:http';
import { contextOf } from '../core/request-context.js';

/**
 * Makes a request's work stop with `reason` (a GatewayError): its upstream call is cancelled, and the
 * handler answers with that error as it would with an upstream failure, in the protocol's shape, in-band
 * once a stream has started. A request whose handler has not started yet gets an aborted signal when it does.
 */
export function endRequest(res: ServerResponse, reason: unknown): void {
  contextOf(res.req).work.stop(reason);
}
