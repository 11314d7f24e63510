import type { Response } from 'express';
import { JsonArrayWriter } from '../../http/json-array-writer.js';
import type { StreamSink } from '../../http/send-stream.js';
import { SseWriter } from '../../http/sse-writer.js';

/**
 * Gemini's two stream forms: with `alt=sse`, `data:` frames only (the frames it is given carry no event
 * name: an `event:` line makes the SDK drop the chunk, and `[DONE]` makes it throw); without `alt` (or
 * `alt=json`), one JSON array written as it grows. Objects are JSON-encoded, strings sent as the JSON they are.
 */
export function openGeminiStream(res: Response, alt: string | undefined): StreamSink {
  if (alt !== 'sse') return new JsonArrayWriter(res);
  const sse = new SseWriter(res);
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
