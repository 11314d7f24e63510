import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import type { OperationRoute } from '../../../generated/operations.js';
import { runMiddleware } from '../run-middleware.js';
import { beginRequest, type FrontDoorParts, type RequestDispatch } from './create-front-door.js';

export interface UpgradeDoorParts extends Pick<FrontDoorParts, 'table' | 'protocolOf'> {
  /** The app whose response prototype the handshake's answer gets, as the server gives its responses. */
  app: Express;
  /** The front door, for a handshake on any other target: it answers as it would the same request without `Upgrade`. */
  dispatch: RequestDispatch;
  /** The operation whose target a WebSocket may be opened on (`createResponse`). */
  upgradable(route: OperationRoute): boolean;
  /** What the handshake runs before it is accepted: the front door's `identify`, then authentication. */
  steps: RequestHandler[];
  errorHandler: ErrorRequestHandler;
  /** Takes the socket over once the handshake passed every step (the WebSocket library's upgrade). */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/**
 * The front door of a WebSocket handshake (Node's `upgrade` event). The target is matched by the operation
 * table as the same `POST` would be (operation-table.ts: the same base paths, the same case and slash
 * rules), so `/v1//responses/` opens the socket and `/V1/responses` is the 404 HTTP gives it. The handshake
 * then passes the request ID, log line and authentication steps of an HTTP request: a missing, wrong or
 * revoked key is answered with a plain HTTP 401 in the operation's error shape and the connection closed,
 * never an open socket. Any other target goes to the front door as an ordinary request.
 *
 * The handshake's answer is a `ServerResponse` on the upgraded socket, so that the error handler and the
 * request log treat it as any response; once accepted, its status is 101 and its log line is written when
 * the socket closes, with the connection's duration.
 */
export function createUpgradeDoor({ app, table, protocolOf, dispatch, upgradable, steps, errorHandler, accept }: UpgradeDoorParts) {
  return (_server: Server, incoming: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Node types the upgraded connection as any Duplex; an HTTP server's own connections are sockets, which the
    // handshake's ServerResponse needs. Anything else (no such path exists today) is refused, not cast.
    if (!(socket instanceof Socket)) {
      socket.destroy();
      return;
    }
    const req = incoming as Request;
    const res = new ServerResponse(req) as Response;
    Object.setPrototypeOf(res, app.response);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    // An answer other than the upgrade ends the connection: the client asked for a socket, not for more requests.
    res.once('finish', () => socket.end());
    socket.on('error', () => socket.destroy());
    const match = table.match('POST', req.url);
    if (req.method !== 'GET' || !match || !upgradable(match.route)) return dispatch(req, res);
    beginRequest(req, res, match, { table, protocolOf });
    const upgrade: RequestHandler = () => {
      res.statusCode = 101;
      accept(req, socket, head);
    };
    runMiddleware([...steps, upgrade], req, res, (error) => errorHandler(error ?? new Error('the WebSocket handshake ended without an answer'), req, res, () => undefined));
  };
}
