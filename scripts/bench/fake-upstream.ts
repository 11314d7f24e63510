import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { UpstreamPayloads } from './upstream-payloads.js';

/**
 * An OpenAI upstream that does as little as possible, so that what the bench measures is the hop in front
 * of it: every answer is precomputed bytes. `POST /v1/chat/completions` streams when the body has
 * `"stream":true` (a byte search, not a JSON parse; every client here sends compact JSON), and
 * `POST /v1/images/generations` (and `/v1/images/edits`, for the soak) returns one ~1 MB PNG as `b64_json`.
 *
 * With `holdStreams(true)` a stream sends its first events and then waits for `releaseHeldStreams()` (or
 * `holdTimeoutMs`) before the rest: how open-streams.ts keeps 1,000 streams open at once.
 */
export interface FakeUpstream {
  server: Server;
  holdStreams(on: boolean): void;
  /** Finishes every held stream; returns how many there were. */
  releaseHeldStreams(): number;
}

/** Events sent before a held stream waits: the role chunk and the first content delta, which the gateway relays. */
const heldEventCount = 2;
const streamMarker = Buffer.from('"stream":true');

export function createFakeUpstream(payloads: UpstreamPayloads, options: { holdTimeoutMs?: number } = {}): FakeUpstream {
  const holdTimeoutMs = options.holdTimeoutMs ?? 60_000;
  const held = new Map<ServerResponse, NodeJS.Timeout>();
  let holding = false;

  const finishStream = (res: ServerResponse, fromEvent: number) => {
    const timer = held.get(res);
    if (timer) clearTimeout(timer);
    held.delete(res);
    if (res.destroyed) return;
    for (let index = fromEvent; index < payloads.chatChunks.length; index++) res.write(payloads.chatChunks[index]);
    res.end(payloads.done);
  };

  const stream = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    if (!holding) return finishStream(res, 0);
    for (let index = 0; index < heldEventCount; index++) res.write(payloads.chatChunks[index]);
    held.set(res, setTimeout(() => finishStream(res, heldEventCount), holdTimeoutMs));
    res.once('close', () => {
      clearTimeout(held.get(res));
      held.delete(res);
    });
  };

  const answer = (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      return body.includes(streamMarker) ? stream(res) : sendJson(res, 200, payloads.chatCompletion);
    }
    if (req.method === 'POST' && req.url === '/v1/images/generations') return sendJson(res, 200, payloads.imageGeneration);
    // The soak's edits (multipart, read and ignored): an edit's answer has the same shape as a generation's.
    if (req.method === 'POST' && req.url === '/v1/images/edits') return sendJson(res, 200, payloads.imageGeneration);
    sendJson(res, 404, notFound);
  };

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => answer(req, Buffer.concat(parts), res));
  });
  // Real upstreams keep idle connections far longer than Node's 5 s default; reconnecting is not what we measure.
  server.keepAliveTimeout = 65_000;

  return {
    server,
    holdStreams: (on) => {
      holding = on;
    },
    releaseHeldStreams: () => {
      const count = held.size;
      for (const res of [...held.keys()]) finishStream(res, heldEventCount);
      return count;
    },
  };
}

const notFound = Buffer.from(JSON.stringify({ error: { message: 'Unknown path', type: 'invalid_request_error', param: null, code: 'unknown_url' } }));

function sendJson(res: ServerResponse, status: number, bytes: Buffer): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length });
  res.end(bytes);
}
