import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { GatewayError } from './gateway-error.js';
import { endRequest } from './request-abort-signal.js';

/** What a request still running when the drain ends is told, in its protocol's shape. */
export function shuttingDownError(): GatewayError {
  return new GatewayError('overloaded', 'The gateway is shutting down; retry the request.', { status: 503, headers: { 'retry-after': '1' } });
}

/**
 * The requests this gateway is serving, from their first step until their response has closed, so that
 * shutdown can end those still running and then wait until every one has closed. A response's `close`
 * listeners (metering records its usage row there) have all run by the time it leaves this set.
 *
 * @example
 * const inFlight = new InFlightRequests();   // `inFlight.track` is the first step of every request
 * // on shutdown, once the drain timeout has passed:
 * inFlight.endAll(shuttingDownError());
 * await inFlight.allClosed(2_000);
 */
export class InFlightRequests {
  private readonly open = new Set<ServerResponse>();
  private waiters: Array<() => void> = [];

  /** The step that counts a request in until its response closes. */
  readonly track: RequestHandler = (_req, res, next) => {
    this.open.add(res);
    res.once('close', () => {
      this.open.delete(res);
      if (this.open.size > 0) return;
      // After the emit: listeners registered after this one (metering's) run in the same emit first.
      const waiters = this.waiters;
      this.waiters = [];
      queueMicrotask(() => waiters.forEach((wake) => wake()));
    });
    next();
  };

  get size(): number {
    return this.open.size;
  }

  /** Tells every request still running to stop with `reason` (see endRequest). */
  endAll(reason: unknown): void {
    for (const res of this.open) endRequest(res, reason);
  }

  /** Resolves true once no request is open, or false after `timeoutMs` with some still open. */
  allClosed(timeoutMs: number): Promise<boolean> {
    if (this.open.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== wake);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(wake);
    });
  }
}
