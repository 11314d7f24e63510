import type { Response } from 'express';

/**
 * Sends the status and headers of a streamed answer at once (so the client knows the call was accepted
 * while the upstream is still working) and tracks whether the client is still there.
 *
 * @returns whether writes can still reach the client
 */
export function startStreamedResponse(res: Response, headers: Record<string, string>): () => boolean {
  let open = true;
  res.statusCode = 200;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('cache-control', 'no-cache, no-transform');
  // Stops nginx-style proxies from holding chunks back.
  res.setHeader('x-accel-buffering', 'no');
  res.flushHeaders();
  res.once('close', () => {
    open = false;
  });
  return () => open && !res.writableEnded;
}

/**
 * Writes to a streamed response and, when the socket buffer is full, waits for `drain` (or the client
 * leaving) before resolving, so a slow reader holds the producer back instead of the gateway buffering
 * the answer without bound. `sendNow` puts it on the wire at once (see sendWrittenNow): writers ask for it
 * with their first event, for time to first byte. A write the socket took returns no promise: a stream's
 * every event passes here, and one promise less is one async stage less per event (bench/README.md).
 */
export function writeWithBackpressure(res: Response, text: string, options: { sendNow?: boolean } = {}): Promise<void> | undefined {
  const accepted = res.write(text);
  if (options.sendNow) sendWrittenNow(res);
  if (accepted) return undefined;
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Puts what has been written on the wire now. Node's HTTP response corks its socket on a write and uncorks
 * it on the next tick, and the next tick comes only after the microtask queue is empty: when an upstream's
 * stream arrives in one read, the whole chain of async generators that translates it runs first, and the
 * client would see its first byte only with the last (bench/README.md, scenario (c)). Later events go out
 * in the batches Node makes.
 */
function sendWrittenNow(res: Response): void {
  const socket = res.socket;
  while (socket && socket.writableCorked > 0) socket.uncork();
}
