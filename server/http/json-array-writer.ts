import type { Response } from 'express';
import { startStreamedResponse, writeWithBackpressure } from '../streaming/streamed-response.js';

/**
 * Streams one JSON array element by element, as Gemini's `streamGenerateContent` does without `alt=sse`:
 * `[` goes out with the headers, each element as soon as it is sent (separated by `,`), `]` at the end.
 * The client reads a valid JSON document once the stream ends and can parse elements as they arrive;
 * nothing is buffered whole. Like SseWriter, it waits for `drain` and ignores writes after the client left.
 */
export class JsonArrayWriter {
  private readonly clientPresent: () => boolean;
  private elements = 0;

  constructor(private readonly res: Response) {
    this.clientPresent = startStreamedResponse(res, { 'content-type': 'application/json; charset=utf-8' });
    res.write('[');
  }

  get isOpen(): boolean {
    return this.clientPresent();
  }

  /**
   * Sends one element. Objects are JSON-encoded; a string is sent as the JSON text it already is. Returns a
   * promise only while the client reads slowly (writeWithBackpressure), to be waited for.
   */
  send(element: unknown): Promise<void> | undefined {
    if (!this.isOpen) return undefined;
    const json = typeof element === 'string' ? element : JSON.stringify(element);
    const separator = this.elements === 0 ? '' : ',\r\n';
    this.elements += 1;
    // Time to first byte: the first element leaves at once, not with the elements converted after it.
    return writeWithBackpressure(this.res, separator + json, { sendNow: this.elements === 1 });
  }

  /** Closes the array and the response. */
  end(): void {
    if (this.isOpen) this.res.end(']');
  }
}
