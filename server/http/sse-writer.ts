import type { Response } from 'express';

/**
 * The one writer for every outbound event stream. It sets the headers once, frames events, waits for
 * `drain` when the client reads slowly (so a stream is never buffered without bound) and turns writes
 * after the client left into no-ops.
 */
export class SseWriter {
  private open = true;

  constructor(private readonly res: Response) {
    res.status(200);
    res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    res.setHeader('cache-control', 'no-cache, no-transform');
    res.setHeader('connection', 'keep-alive');
    // Stops nginx-style proxies from holding chunks back.
    res.setHeader('x-accel-buffering', 'no');
    res.flushHeaders();
    res.once('close', () => {
      this.open = false;
    });
  }

  get isOpen(): boolean {
    return this.open && !this.res.writableEnded;
  }

  /** Sends one event. Objects are JSON-encoded; `event` adds an `event:` line (Anthropic and Responses need it). */
  async send(data: unknown, event?: string): Promise<void> {
    if (event !== undefined && /[\r\n]/.test(event)) throw new Error('SSE event names cannot contain line breaks');
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    const frame = (event === undefined ? '' : `event: ${event}\n`) + `data: ${payload}\n\n`;
    await this.write(frame);
  }

  private async write(frame: string): Promise<void> {
    if (!this.isOpen) return;
    if (this.res.write(frame)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  end(): void {
    if (this.isOpen) this.res.end();
    this.open = false;
  }
}
