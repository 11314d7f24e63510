import { GatewayError } from '../../core/gateway-error.js';

/**
 * The frames of the Responses API's WebSocket mode, as OpenAI documents them
 * (https://developers.openai.com/api/docs/guides/websocket-mode and its reference page
 * https://developers.openai.com/api/reference/resources/responses/websocket-events) and as openai/codex's
 * client reads them (codex-rs/codex-api/src/endpoint/responses_websocket.rs, `WrappedWebsocketErrorEvent`).
 */

/** How a failure before a turn's stream began is told in-band: the HTTP status and the error body it would have had. */
export interface ErrorFrame {
  type: 'error';
  status: number;
  error: { type: string; code: string | null; message: string; param: string | null };
  /** Headers the HTTP answer would have carried that a client acts on (`retry-after`). */
  headers?: Record<string, string>;
}

/** Renders a GatewayError in the Responses family's error body (`{error: {...}}`), as the HTTP form would. */
export type OpenAIErrorBody = (error: GatewayError) => unknown;

/** The error frame for a failure whose HTTP answer would have been `status` with `body`. */
export function errorFrameOf(status: number, body: unknown, headers?: Record<string, string>): ErrorFrame {
  const error = (body as { error?: Partial<ErrorFrame['error']> } | undefined)?.error ?? {};
  return {
    type: 'error',
    status,
    error: {
      type: typeof error.type === 'string' ? error.type : 'server_error',
      code: typeof error.code === 'string' ? error.code : null,
      message: typeof error.message === 'string' ? error.message : `The request failed with status ${status}.`,
      param: typeof error.param === 'string' ? error.param : null,
    },
    ...(headers && Object.keys(headers).length > 0 && { headers }),
  };
}

/**
 * The HTTP form answers an unknown `previous_response_id` as it answers `GET /v1/responses/{id}`: 404,
 * code `not_found`, param `response_id` (protocols/openai-responses/responses-history.ts); on `POST
 * /v1/responses` nothing else gives that code and param. OpenAI's WebSocket mode answers it with the code
 * its guide tells clients to act on ("If you receive previous_response_not_found, start a new chain
 * without previous_response_id and with the full context": developers.openai.com/api/docs/guides/websocket-mode),
 * status 400 and OpenAI's wording, which is what this returns for a frame that named `previousResponseId`.
 */
export function previousResponseNotFound(frame: ErrorFrame, previousResponseId: unknown): ErrorFrame {
  const { status, error } = frame;
  if (typeof previousResponseId !== 'string' || status !== 404 || error.code !== 'not_found' || error.param !== 'response_id') return frame;
  return {
    ...frame,
    status: 400,
    error: { type: 'invalid_request_error', code: 'previous_response_not_found', message: `Previous response with id '${previousResponseId}' not found.`, param: 'previous_response_id' },
  };
}

/** The error frame for a GatewayError the socket itself raises (a frame it cannot run, the connection's age). */
export function errorFrameFor(error: GatewayError, render: OpenAIErrorBody): ErrorFrame {
  return errorFrameOf(error.status, render(error));
}

/** A `response.create` frame read: the create body it carries and whether it asks for generation. */
export interface CreateFrame {
  body: Record<string, unknown>;
  /** False for OpenAI's warm-up (`generate: false`): the request state is prepared, nothing generated. */
  generate: boolean;
}

/**
 * Reads a client frame. Only `response.create` is a client event of WebSocket mode; its fields are those of
 * `POST /v1/responses`, without `stream` (implicit) and `background` (not supported over WebSocket). The
 * gateway takes `stream: true`, because openai/codex sends it in every frame (`ResponseCreateWsRequest.stream`)
 * and OpenAI serves Codex; `stream: false` and `background: true` are refused.
 */
export function readCreateFrame(text: string): CreateFrame {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    throw new GatewayError('invalid_request', 'A WebSocket frame must be one JSON object: {"type": "response.create", ...}.');
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    throw new GatewayError('invalid_request', 'A WebSocket frame must be one JSON object: {"type": "response.create", ...}.');
  }
  const { type, generate, ...body } = frame as Record<string, unknown>;
  if (type !== 'response.create') {
    throw new GatewayError('invalid_request', `Unknown client event type ${JSON.stringify(type)}: the only one is "response.create".`, { param: 'type' });
  }
  if (body.stream !== undefined && body.stream !== true) {
    throw new GatewayError('invalid_request', '`stream` is implicit over WebSocket (every response is streamed as events): leave it out.', { param: 'stream' });
  }
  if (body.background !== undefined && body.background !== false && body.background !== null) {
    throw new GatewayError('invalid_request', '`background` is not supported over WebSocket: use POST /v1/responses for background responses.', { param: 'background' });
  }
  if (generate !== undefined && typeof generate !== 'boolean') {
    throw new GatewayError('invalid_request', '`generate` must be a boolean.', { param: 'generate' });
  }
  delete body.background;
  return { body: { ...body, stream: true }, generate: generate !== false };
}
