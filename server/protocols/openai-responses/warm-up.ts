import type { IncomingMessage } from 'node:http';
import { responseEcho } from './response-echo.js';
import type { ResponsesCreateRequest } from './wire-types.js';

/**
 * Tells a warm-up request from a generating one: true for the request a Responses WebSocket sends for a
 * `response.create` frame with `generate: false` (http/websocket/). Nothing a client sends over HTTP makes
 * it true (it is the socket's own in-process connection), so the HTTP form has no warm-up of its own.
 */
export type WarmUpTest = (req: IncomingMessage) => boolean;

/**
 * The answer to a warm-up once it passed every check a generating request passes: an empty, finished
 * response under a new ID, usage 0. "generate: false does not return a model output, but prepares request
 * state so the next generated turn can start faster. The warmup request returns a response ID that you can
 * chain from with previous_response_id" (OpenAI's WebSocket mode guide,
 * developers.openai.com/api/docs/guides/websocket-mode). Nothing is stored: the socket keeps its state.
 */
export function warmUpResponse(body: ResponsesCreateRequest, id: string): Record<string, unknown> {
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    ...responseEcho(body),
    output: [],
    store: false,
    usage: { input_tokens: 0, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 },
  };
}
