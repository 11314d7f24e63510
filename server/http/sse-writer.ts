import type { Response } from 'express';
import { startStreamedResponse, writeWithBackpressure } from '../streaming/streamed-response.js';

/**
 * The one writer for every outbound event stream. It sets the headers once, frames events, waits for
 * `drain` when the client reads slowly (so a stream is never buffered without bound) and turns writes
 * after the client left into no-ops.
 */
export class SseWriter {
  private readonly clientPresent: () => boolean;
  private sentFirst = false;

  constructor(private readonly res: Response) {
    this.clientPresent = startStreamedResponse(res, { 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
  }

  get isOpen(): boolean {
    return this.clientPresent();
  }

  /**
   * Sends one event. Objects are JSON-encoded; `event` adds an `event:` line (Anthropic and Responses need it).
   * Returns a promise only while the client reads slowly (writeWithBackpressure), to be waited for.
   */
  send(data: unknown, event?: string): Promise<void> | undefined {
    if (event !== undefined && /[\r\n]/.test(event)) throw new Error('SSE event names cannot contain line breaks');
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    const frame = (event === undefined ? '' : `event: ${event}\n`) + dataLines(payload) + '\n';
    if (!this.isOpen) return undefined;
    // Time to first byte: the first event leaves at once, not with the events translated after it.
    const sendNow = !this.sentFirst;
    this.sentFirst = true;
    return writeWithBackpressure(this.res, frame, { sendNow });
  }

  end(): void {
    if (this.isOpen) this.res.end();
  }
}

/**
 * The `data:` lines of a payload. JSON the gateway encodes has no line breaks, but a passed-through frame
 * is the upstream's text as it came and may span lines (pretty-printed JSON is valid SSE data); each line
 * needs its own `data:` prefix, or the client would read the rest as unknown fields and lose it.
 */
function dataLines(payload: string): string {
  if (!payload.includes('\n') && !payload.includes('\r')) return `data: ${payload}\n`;
  return payload
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('');
}
