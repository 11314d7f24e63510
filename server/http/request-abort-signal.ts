import type { ServerResponse } from 'node:http';
import type { Response } from 'express';

/** Each response's one controller, so every caller of `requestAbortSignal` and `endRequest` meets the same signal. */
const controllers = new WeakMap<ServerResponse, AbortController>();
/** Why a request was told to end before its handler asked for its signal. */
const endedEarly = new WeakMap<ServerResponse, unknown>();

/**
 * An AbortSignal that fires when the client goes away before the response finished, so providers can
 * cancel the upstream call instead of generating for nobody; or when the gateway ends the request
 * ({@link endRequest}), with the reason it gave. The same signal for every call on one response.
 */
export function requestAbortSignal(res: Response): AbortSignal {
  const existing = controllers.get(res);
  if (existing) return existing.signal;
  const controller = new AbortController();
  controllers.set(res, controller);
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  if (endedEarly.has(res)) controller.abort(endedEarly.get(res));
  return controller.signal;
}

/**
 * Makes a request's work stop with `reason` (a GatewayError): its upstream call is cancelled, and the
 * handler answers with that error as it would with an upstream failure, in the protocol's shape, in-band
 * once a stream has started. A request whose handler has not started yet gets an aborted signal when it does.
 */
export function endRequest(res: ServerResponse, reason: unknown): void {
  const controller = controllers.get(res);
  if (controller) controller.abort(reason);
  else endedEarly.set(res, reason);
}
