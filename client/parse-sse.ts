import { EventSourceParserStream } from 'eventsource-parser/stream';
import { GatewayApiError } from './gateway-api-error.js';

/** One server-sent event with its `data:` already JSON-parsed. */
export interface SseEvent<T> {
  /** The `event:` line, when the frame had one (Anthropic and Responses streams do, Chat and Gemini don't). */
  event?: string;
  /** The `id:` line, when the frame had one. */
  id?: string;
  data: T;
}

/**
 * Parses a `text/event-stream` body into events, for every streaming protocol the gateway speaks. Bytes
 * are decoded as UTF-8 across reads and framed by `eventsource-parser` (lines end at CR, LF or CRLF only,
 * so U+2028 inside a JSON string stays in its frame); each `data` is parsed as JSON. The iteration ends
 * at the stream's end or at `data: [DONE]` (Chat Completions). A frame named `error`, or whose JSON has
 * a top-level `error`, throws {@link GatewayApiError} with an undefined status, since the HTTP status was
 * already 200. Breaking out of the loop cancels the body, which releases the connection.
 *
 * @example
 * ```ts
 * const response = await fetch(`${origin}/v1/messages`, { method: 'POST', headers, body });
 * for await (const { event, data } of parseSse<AnthropicStreamEvent>(response.body!)) {
 *   if (event === 'content_block_delta') console.log(data);
 * }
 * ```
 */
export async function* parseSse<T>(stream: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent<T>, void, undefined> {
  const reader = stream
    .pipeThrough(decodeUtf8())
    // Lines with unknown fields are ignored, as the SSE spec says (the parser's default).
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || value.data === '[DONE]') return;
      // A frame with no data lines dispatches nothing in browsers either.
      if (value.data === '') continue;
      const data = parseJson(value.data);
      if (value.event === 'error' || hasTopLevelError(data)) throw new GatewayApiError(undefined, data);
      yield { ...(value.event === undefined ? {} : { event: value.event }), ...(value.id === undefined ? {} : { id: value.id }), data: data as T };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

// TextDecoderStream, plus a line feed at the end: a frame ended by a bare CR at the very end of the body is
// otherwise never dispatched (the parser waits for a possible LF), and an extra LF changes nothing else.
function decodeUtf8(): TransformStream<Uint8Array, string> {
  const decoder = new TextDecoder();
  return new TransformStream({
    transform(chunk, controller) {
      const text = decoder.decode(chunk, { stream: true });
      if (text) controller.enqueue(text);
    },
    flush(controller) {
      controller.enqueue(`${decoder.decode()}\n`);
    },
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    const excerpt = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    throw new SyntaxError(`An event-stream frame is not JSON: ${excerpt}`, { cause });
  }
}

function hasTopLevelError(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'error' in data && (data as { error: unknown }).error != null;
}
