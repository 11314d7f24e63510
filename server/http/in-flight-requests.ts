import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError } from '../core/gateway-error.js';
import { endRequest } from './end-request.js';

/** What a request still running when the drain ends is told, in its protocol's shape. */
export function shuttingDownError(): GatewayError {
  return new GatewayError('overloaded', 'The gateway is shutting down; retry the request.', { status: 503, headers: { 'retry-after': '1' } });
}

/** Node's own link from a connection to the response it is serving (http-terminator and others read it too). */
type ServingSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * The requests a server is serving, so that shutdown can end those still running and then wait until
 * every one's response has closed (its `close` listeners, where metering records the usage row, have
 * then run).
 *
 * It watches connections, not requests: a listener per request cost the hot path some 8% of its
 * throughput (`npm run bench`, scenario a), while a keep-alive connection carries thousands of requests.
 * The response a connection is serving is Node's `socket._httpMessage`, set until the response has
 * finished and detached, and before its `close` is emitted. A request whose client left is still running
 * while the gateway reads its upstream on (core/request-work.ts): metering hands it over with `keepUntil`.
 *
 * @example
 * const inFlight = new InFlightRequests();
 * inFlight.watch(server);
 * // on shutdown, once the drain timeout has passed:
 * inFlight.endAll(shuttingDownError());
 * await inFlight.allClosed(2_000);
 */
export class InFlightRequests {
  private readonly sockets = new Set<ServingSocket>();
  /** Responses whose client left, each until its drain is over and its row recorded. */
  private readonly abandoned = new Map<ServerResponse, Promise<void>>();

  watch(server: Server): void {
    server.on('connection', (socket: ServingSocket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  get size(): number {
    return this.openResponses().length + this.abandoned.size;
  }

  /** Counts a response whose client left as running until `until` settles. */
  keepUntil(res: ServerResponse, until: Promise<void>): void {
    this.abandoned.set(res, until);
    void until.finally(() => this.abandoned.delete(res));
  }

  /** Tells every request still running to stop with `reason` (see endRequest). */
  endAll(reason: unknown): void {
    for (const res of [...this.openResponses(), ...this.abandoned.keys()]) endRequest(res, reason);
  }

  /** Resolves true once no response is open, or false after `timeoutMs` with some still open. */
  async allClosed(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (let open = this.openResponses(); open.length + this.abandoned.size > 0; open = this.openResponses()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      // A keep-alive connection may start another request meanwhile: the loop looks again.
      await Promise.race([
        Promise.all([...open.map((res) => new Promise((resolve) => res.once('close', resolve))), ...this.abandoned.values()]),
        new Promise((resolve) => (timer = setTimeout(resolve, left))),
      ]);
      clearTimeout(timer);
    }
    return true;
  }

  /**
   * Resolves once every request running now has closed; requests started later are not waited for, so
   * it settles under steady traffic too (a config reload closes old providers after it).
   */
  async runningNowClosed(): Promise<void> {
    const closed = (res: ServerResponse) => (res.closed ? Promise.resolve() : new Promise((resolve) => res.once('close', resolve)));
    await Promise.all([...this.openResponses().map(closed), ...this.abandoned.values()]);
  }

  private openResponses(): ServerResponse[] {
    const open: ServerResponse[] = [];
    for (const socket of this.sockets) if (socket._httpMessage) open.push(socket._httpMessage);
    return open;
  }
}
