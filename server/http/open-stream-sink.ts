import type { Response } from 'express';
import type { StreamForm } from '../core/started-answer.js';
import { JsonArrayWriter } from './json-array-writer.js';
import type { StreamSink } from '../core/stream-sink.js';
import { SseWriter } from './sse-writer.js';

/**
 * Starts the streamed response in the client protocol's form: server-sent events (named by each frame's
 * `event`, where it has one), server-sent events whose data keeps to one line, or one JSON array written
 * as it grows (Gemini without `alt=sse`). Objects are JSON-encoded, strings sent as the text they are.
 */
export function openStreamSink(res: Response, form: StreamForm): StreamSink {
  if (form === 'json-array') return new JsonArrayWriter(res);
  const sse = new SseWriter(res);
  if (form === 'sse') return sse;
  return {
    get isOpen() {
      return sse.isOpen;
    },
    // Google's SDKs parse each `data:` line as JSON by itself, so a passed-through payload the upstream spread
    // over several lines must go out as one: outside strings its line breaks are JSON whitespace, spaces do.
    send: (chunk) => sse.send(typeof chunk === 'string' && /[\r\n]/.test(chunk) ? chunk.replace(/\r?\n|\r/g, ' ') : chunk),
    end: () => sse.end(),
  };
}
