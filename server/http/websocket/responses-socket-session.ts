import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { GatewayError } from '../../core/gateway-error.js';
import { sendInProcess } from './in-process-request.js';
import { SocketConversation } from './socket-conversation.js';
import { errorFrameFor, errorFrameOf, previousResponseNotFound, readCreateFrame, type OpenAIErrorBody } from './turn-frames.js';

/** Above this many bytes waiting to go out, the turn's stream waits for the client to read (no unbounded buffering). */
const highWaterBytes = 1024 * 1024;
/** An error answer or a warm-up's response is a small JSON body; a bigger one is cut rather than held. */
const smallBodyLimit = 64 * 1024;

export interface SessionOptions {
  /** The gateway's own HTTP server: every turn is a request through it (its front door, metering, limits, logs). */
  server: Server;
  /** The path the socket was opened on, as the client spelled it: each turn is `POST` to it. */
  path: string;
  /** The handshake's headers that every turn carries (the key, the client's own headers). */
  headers: IncomingHttpHeaders;
  renderError: OpenAIErrorBody;
  logger: Logger;
  /** How long the connection may live (`responses.websocket_max_connection_minutes`). */
  maxAgeMs: number;
  /** Marks the connection of a warm-up's request, which the create handler then admits without generating. */
  tagWarmUp(connection: Duplex): void;
}

/**
 * One WebSocket on `/v1/responses`. Each `response.create` frame is one request: it is sent through the
 * gateway's own server as `POST /v1/responses` with `stream: true`, so it passes the same front door
 * (the key checked again, so a key revoked mid-socket has its next turn refused), is metered, limited,
 * traced and logged as one request, and its answer's server-sent events go out one text frame each,
 * exactly as the SSE form sends them. A failure before the stream began, which HTTP would answer with an
 * error status, is one `{"type": "error", "status", "error"}` frame, the shape openai/codex reads
 * (`WrappedWebsocketErrorEvent` in codex-rs/codex-api/src/endpoint/responses_websocket.rs).
 *
 * Turns run one after another, in the order their frames came: OpenAI's WebSocket mode runs one response
 * at a time on a connection. A client that leaves mid-turn is a client leaving the HTTP request: the
 * request's connection closes and the gateway does what it does for that (reads on within the drain
 * bound, then cancels the upstream). When the connection's age passes its cap, the turn running finishes
 * and the socket then answers `websocket_connection_limit_reached` (OpenAI's code and wording) and closes;
 * on shutdown the turn running finishes and the socket closes with 1001 (going away).
 */
export class ResponsesSocketSession {
  private readonly frames: string[] = [];
  private readonly conversation = new SocketConversation();
  private running = false;
  private closed = false;
  private expired = false;
  private draining = false;
  private cancelTurn: (() => void) | undefined;
  private readonly ageTimer: NodeJS.Timeout;

  constructor(
    private readonly ws: WebSocket,
    private readonly options: SessionOptions,
  ) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return this.sendJson(errorFrameFor(new GatewayError('invalid_request', 'Frames are JSON text; a binary frame is not read.'), options.renderError));
      this.frames.push(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'));
      void this.runFrames();
    });
    ws.on('close', () => {
      this.closed = true;
      clearTimeout(this.ageTimer);
      this.cancelTurn?.();
    });
    // A socket error (a bad frame from the client) is followed by its close; nothing more to do.
    ws.on('error', (error) => options.logger.debug({ err: error }, 'websocket error'));
    this.ageTimer = setTimeout(() => {
      this.expired = true;
      if (!this.running) this.endForAge();
    }, options.maxAgeMs);
    this.ageTimer.unref();
  }

  /** Shutdown: the turn running finishes, then the socket closes with 1001; frames not begun are not run. */
  drain(): void {
    this.draining = true;
    if (!this.running) this.close(1001, 'server shutting down');
  }

  /** The drain timeout: the socket is cut at once, and the turn running with it (its request is stopped too). */
  terminate(): void {
    this.cancelTurn?.();
    this.closed = true;
    clearTimeout(this.ageTimer);
    this.ws.terminate();
  }

  private async runFrames(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.frames.length > 0 && !this.closed && !this.expired && !this.draining) await this.runTurn(this.frames.shift()!);
    } finally {
      this.running = false;
    }
    if (this.expired) this.endForAge();
    else if (this.draining) this.close(1001, 'server shutting down');
  }

  private async runTurn(text: string): Promise<void> {
    let frame: ReturnType<typeof readCreateFrame>;
    try {
      frame = readCreateFrame(text);
    } catch (error) {
      return this.sendJson(errorFrameFor(error as GatewayError, this.options.renderError));
    }
    const body = this.conversation.bodyFor(frame.body);
    // A warm-up is the same request, answered as JSON once admitted (protocols/openai-responses/warm-up.ts).
    const warmUp = !frame.generate;
    const started = process.hrtime.bigint();
    const turn = sendInProcess(this.options.server, {
      method: 'POST',
      path: this.options.path,
      headers: this.options.headers,
      body: JSON.stringify(warmUp ? { ...body, stream: false } : body),
      ...(warmUp && { tagConnection: this.options.tagWarmUp }),
    });
    this.cancelTurn = turn.cancel;
    let response: IncomingMessage;
    try {
      response = await turn.response;
    } catch (error) {
      if (!this.closed) this.options.logger.error({ err: error }, 'websocket turn failed before its answer');
      return this.sendJson(errorFrameOf(500, undefined));
    }
    try {
      const streamed = response.statusCode === 200 && String(response.headers['content-type']).startsWith('text/event-stream');
      if (warmUp && response.statusCode === 200) await this.forwardWarmUp(response, body);
      else if (streamed) await this.forwardEvents(response, body);
      else await this.forwardError(response, frame.body.previous_response_id);
    } catch (error) {
      // The client left (the turn's request was cancelled with it), or the answer broke off: nobody to tell, or nothing more to send.
      if (!this.closed) this.options.logger.warn({ err: error }, 'websocket turn ended before its answer did');
    } finally {
      this.cancelTurn = undefined;
      this.options.logger.info(
        {
          requestId: response.headers['x-request-id'],
          transport: 'websocket',
          status: response.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          ...(warmUp && { generate: false }),
        },
        'websocket turn',
      );
    }
  }

  /** Each server-sent event of the turn's answer as one text frame, its data as the SSE form sent it. */
  private async forwardEvents(response: IncomingMessage, sent: Record<string, unknown>): Promise<void> {
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    response.setEncoding('utf8');
    for await (const chunk of response as AsyncIterable<string>) {
      parser.feed(chunk);
      for (const event of events.splice(0)) {
        if (this.closed) return;
        if (event.event === 'response.completed' || event.event === 'response.incomplete') {
          this.conversation.rememberTurn(sent, (JSON.parse(event.data) as { response: { id?: unknown; output?: unknown } }).response);
        }
        await this.sendText(event.data);
      }
    }
  }

  /** The HTTP answer's error as one frame; `previousResponseId` is the one the client's frame named. */
  private async forwardError(response: IncomingMessage, previousResponseId: unknown): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(await readSmallBody(response));
    } catch {
      body = undefined;
    }
    const retryAfter = response.headers['retry-after'];
    const frame = errorFrameOf(response.statusCode ?? 500, body, typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : undefined);
    await this.sendJson(previousResponseNotFound(frame, previousResponseId));
  }

  /**
   * An admitted warm-up: its empty response, as OpenAI's WebSocket mode tells it, `response.created` then
   * `response.completed`; the socket keeps the request's state under its ID for the next turn.
   */
  private async forwardWarmUp(response: IncomingMessage, sent: Record<string, unknown>): Promise<void> {
    const answer = JSON.parse(await readSmallBody(response)) as Record<string, unknown> & { id: string };
    this.conversation.warmedUp(sent, answer.id);
    await this.sendJson({ type: 'response.created', sequence_number: 0, response: { ...answer, status: 'in_progress', usage: null } });
    await this.sendJson({ type: 'response.completed', sequence_number: 1, response: answer });
  }

  private sendJson(frame: unknown): Promise<void> {
    return this.sendText(JSON.stringify(frame));
  }

  /** Sends one text frame, waiting while the client is behind on reading. */
  private sendText(text: string): Promise<void> {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return Promise.resolve();
    if (this.ws.bufferedAmount < highWaterBytes) {
      this.ws.send(text);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.ws.send(text, () => resolve()));
  }

  private endForAge(): void {
    const limit = new GatewayError('invalid_request', 'Responses websocket connection limit reached (60 minutes). Create a new websocket connection to continue.', {
      code: 'websocket_connection_limit_reached',
    });
    const minutes = this.options.maxAgeMs / 60_000;
    const message = limit.message.replace('60 minutes', `${Number.isInteger(minutes) ? minutes : minutes.toFixed(2)} minutes`);
    void this.sendJson(errorFrameFor(new GatewayError('invalid_request', message, { code: limit.code }), this.options.renderError)).then(() => this.close(1000, 'connection limit reached'));
  }

  private close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.ageTimer);
    this.ws.close(code, reason);
  }
}

/** A small JSON answer's text (an error, a warm-up's response); a bigger one is cut rather than held. */
async function readSmallBody(response: IncomingMessage): Promise<string> {
  let text = '';
  response.setEncoding('utf8');
  for await (const chunk of response as AsyncIterable<string>) {
    text += chunk;
    if (text.length > smallBodyLimit) break;
  }
  return text;
}
