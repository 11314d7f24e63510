import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { contextOf } from '../../core/request-context.js';
import { ResponsesSocketSession } from './responses-socket-session.js';
import type { OpenAIErrorBody } from './turn-frames.js';

export interface ResponsesSocketsOptions {
  renderError: OpenAIErrorBody;
  logger: Logger;
  maxAgeMs: number;
  /** The largest frame taken, as the largest request body is (`GATEWAY_MAX_BODY_BYTES`). */
  maxPayload: number;
  /** Told of each socket opened and closed (the metrics' `gateway_open_websockets`), when metrics are on. */
  openSockets?: { webSocketOpened(): void; webSocketClosed(): void };
}

/**
 * Headers of the handshake a turn's request does not carry: the connection's own (the upgrade and its
 * WebSocket fields, the body's framing) and the request ID, which each turn gets afresh.
 */
const connectionHeaders = new Set([
  'connection',
  'upgrade',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'expect',
  'accept-encoding',
  'x-request-id',
  'keep-alive',
]);

/**
 * The WebSockets of the Responses API (OpenAI's WebSocket mode) on one gateway server: the `ws` library
 * takes each handshake the upgrade door passed, with `permessage-deflate` on as openai/codex asks for it
 * (`websocket_config` in codex-rs/codex-api/src/endpoint/responses_websocket.rs), and every open socket is
 * a {@link ResponsesSocketSession}. `drain` is shutdown's: every socket finishes its turn and closes with 1001.
 *
 * The handshake's response stays open, and so counts as a request in flight (http/in-flight-requests.ts),
 * until the socket closes. At the drain timeout shutdown stops the work of every request still in flight:
 * for the handshake's, that is the socket's end, cut (`terminate`) whatever its client does. Node's
 * `closeAllConnections` leaves upgraded sockets alone, and `ws` would wait 30 s for the close frame of a
 * client that ignores the 1001.
 */
export function createResponsesSockets(options: ResponsesSocketsOptions) {
  const webSockets = new WebSocketServer({ noServer: true, perMessageDeflate: true, maxPayload: options.maxPayload });
  const sessions = new Set<ResponsesSocketSession>();
  /** The in-process connections of warm-up requests (each carries one request). */
  const warmUps = new WeakSet<object>();
  let server: Server | undefined;
  let draining = false;
  return {
    /** The server whose front door serves the turns (set once it listens). */
    serveThrough(gatewayServer: Server): void {
      server = gatewayServer;
    },
    accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      if (!server) throw new Error('WebSocket accepted before the gateway server was set');
      const gatewayServer = server;
      webSockets.handleUpgrade(req, socket, head, (ws) => {
        const session = new ResponsesSocketSession(ws, {
          server: gatewayServer,
          path: (req.url ?? '/').split('?')[0]!,
          headers: turnHeaders(req.headers),
          renderError: options.renderError,
          logger: options.logger,
          maxAgeMs: options.maxAgeMs,
          tagWarmUp: (connection) => warmUps.add(connection),
        });
        sessions.add(session);
        options.openSockets?.webSocketOpened();
        ws.once('close', () => {
          sessions.delete(session);
          options.openSockets?.webSocketClosed();
        });
        const { signal } = contextOf(req).work;
        if (signal.aborted) session.terminate();
        else signal.addEventListener('abort', () => session.terminate(), { once: true });
        if (draining) session.drain();
      });
    },
    /** Whether a request is a socket's warm-up (`generate: false`): it came over a connection tagged as one. */
    isWarmUp(req: IncomingMessage): boolean {
      return warmUps.has(req.socket);
    },
    drain(): void {
      draining = true;
      for (const session of sessions) session.drain();
    },
  };
}

function turnHeaders(handshake: IncomingHttpHeaders): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(handshake)) {
    if (!connectionHeaders.has(name) && !name.startsWith('sec-websocket-')) headers[name] = value;
  }
  return { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' };
}
