import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { shuttingDownError, type InFlightRequests } from './in-flight-requests.js';

/** How long requests told to end get to send their error and finish before their connections are cut. */
const endGraceMs = 2_000;
/** How long cut connections get for their responses' `close` listeners (the usage rows) to run. */
const closeWaitMs = 1_000;

/**
 * Stops accepting connections and lets in-flight requests finish for `timeoutMs`. Requests still running
 * then are ended with a 503 "shutting down" in their protocol's shape (in-band, as an error event, once a
 * stream has started) and get {@link endGraceMs} to send it. Only then are the remaining connections
 * closed. Resolves once every request's response has closed, so its usage row has been recorded.
 *
 * The wait on `inFlight` rather than on the server matters: the server's close callback runs on the tick
 * after its last socket is destroyed, but the responses on those sockets emit `close` (where metering
 * records their rows) only when the sockets' handles have closed, a turn of the event loop later. Shutting
 * the ledger down on the server's callback lost every row of a request cut at the drain timeout.
 */
export async function drainServer(server: Server, inFlight: InFlightRequests, timeoutMs: number, logger: Logger): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  if (!(await inFlight.allClosed(timeoutMs))) {
    logger.warn({ open: inFlight.size }, 'drain timeout: ending the requests still running');
    inFlight.endAll(shuttingDownError());
    if (!(await inFlight.allClosed(endGraceMs))) logger.warn({ open: inFlight.size }, 'closing the connections of requests that did not end');
  }
  // Idle keep-alive connections, and requests that would not end (a client that stopped reading).
  server.closeAllConnections();
  if (!(await inFlight.allClosed(closeWaitMs))) logger.error({ open: inFlight.size }, 'responses still open after their connections were closed');
  await closed;
}
