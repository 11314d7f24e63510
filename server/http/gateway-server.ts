import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import type { RequestDispatch } from './front-door/create-front-door.js';

/**
 * The HTTP server for the app. Its requests and responses are created with Express's prototypes already in
 * place: Express would otherwise swap the prototype of both objects on every request
 * (`Object.setPrototypeOf`), which V8 answers by dropping its optimised property access for them on every
 * later use in Node's HTTP internals (bench/README.md has what it cost). With the prototype already right,
 * Express's swap is a no-op.
 */
export function createGatewayServer(app: Express, dispatch: RequestDispatch): Server {
  function ExpressRequest(this: IncomingMessage, socket: Socket) {
    IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: ServerResponse, req: IncomingMessage, options?: unknown) {
    (ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return createServer(
    { IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage, ServerResponse: ExpressResponse as unknown as typeof ServerResponse },
    dispatch,
  );
}
