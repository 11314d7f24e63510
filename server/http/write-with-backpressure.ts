import type { Response } from 'express';

/**
 * Writes to a streamed response and, when the socket buffer is full, waits for `drain` (or the client
 * leaving) before resolving, so a slow reader holds the producer back instead of the gateway buffering
 * the answer without bound.
 */
export async function writeWithBackpressure(res: Response, text: string): Promise<void> {
  if (res.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
