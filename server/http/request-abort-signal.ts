import type { ServerResponse } from 'node:http';
import { contextOf } from '../core/request-context.js';

/**
 * The AbortSignal every upstream call of a request is cancelled by: it fires when the gateway ends the
 * request ({@link endRequest}), with the reason it gave. A client that leaves does not fire it: the
 * upstream bills what it generates whether or not anyone reads it, so the gateway reads on until the
 * answer's usage arrives, and metering ends the request only at the drain's bound (core/request-work.ts).
 */
export function requestAbortSignal(res: ServerResponse): AbortSignal {
  return contextOf(res.req).work.signal;
}

/**
 * Makes a request's work stop with `reason` (a GatewayError): its upstream call is cancelled, and the
 * handler answers with that error as it would with an upstream failure, in the protocol's shape, in-band
 * once a stream has started. A request whose handler has not started yet gets an aborted signal when it does.
 */
export function endRequest(res: ServerResponse, reason: unknown): void {
  contextOf(res.req).work.stop(reason);
}
