import type { Response } from 'express';
import { JsonArrayWriter } from '../../http/json-array-writer.js';
import { SseWriter } from '../../http/sse-writer.js';

/** Where a streamGenerateContent answer goes: objects are JSON-encoded, strings sent as the JSON they are. */
export interface GeminiStreamOut {
  readonly isOpen: boolean;
  send(chunk: unknown): Promise<void>;
  end(): void;
}

/**
 * Gemini's two stream forms: with `alt=sse`, `data:` frames only (an `event:` line makes the SDK drop the
 * chunk, and `[DONE]` makes it throw); without `alt` (or `alt=json`), one JSON array written as it grows.
 */
export function openGeminiStream(res: Response, alt: string | undefined): GeminiStreamOut {
  if (alt === 'sse') {
    const sse = new SseWriter(res);
    return {
      get isOpen() {
        return sse.isOpen;
      },
      // A passed-through payload spread over several `data:` lines would arrive joined by line breaks,
      // which cannot go out as one `data:` line; outside strings they are JSON whitespace, so spaces do.
      send: (chunk) => sse.send(typeof chunk === 'string' && chunk.includes('\n') ? chunk.replace(/\r?\n/g, ' ') : chunk),
      end: () => sse.end(),
    };
  }
  return new JsonArrayWriter(res);
}
