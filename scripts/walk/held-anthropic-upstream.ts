import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../bench/repo-root.js';

/** The recorded Anthropic stream the walk replays (test/fixtures/upstream-recorded/README.md says how). */
const recording = join(repoRoot, 'test/fixtures/upstream-recorded/anthropic-messages/stream-text.chunks.txt');

/** One recorded event as Anthropic sends it: `event: <type>` and `data: <json>`. */
export interface RecordedEvent {
  type: string;
  bytes: string;
}

export function recordedEvents(): RecordedEvent[] {
  return readFileSync(recording, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const { type } = JSON.parse(line) as { type: string };
      return { type, bytes: `event: ${type}\ndata: ${line}\n\n` };
    });
}

/** A streamed answer the upstream is holding: the walk releases its events one at a time. */
export interface HeldStream {
  /** Writes the next recorded event; false once every event is out (the stream is then ended). */
  releaseNext(): boolean;
  /** The type of the event `releaseNext` would write next. */
  nextType(): string | undefined;
  releaseRest(): void;
}

export interface HeldAnthropicUpstream {
  /** `http://127.0.0.1:<port>` (Anthropic's base URL has no /v1). */
  origin: string;
  /** Called on the request's arrival (its `request` event), before anything is answered. */
  onRequest(listener: (held: HeldStream) => void): void;
  close(): Promise<void>;
}

/**
 * A fake Anthropic Messages upstream on 127.0.0.1 that answers every `POST /v1/messages` with the
 * recorded `stream-text` stream, but writes nothing beyond the headers until told: the walk brackets
 * exactly one event on its way back through the gateway.
 */
export async function startHeldAnthropicUpstream(): Promise<HeldAnthropicUpstream> {
  const events = recordedEvents();
  let listener: (held: HeldStream) => void = () => undefined;
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"not_found_error","message":"not found"}}');
      return;
    }
    req.resume();
    // The listener first: it marks the moment the request arrived, before this fake does any work.
    listener(holdStream(res, events));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    onRequest: (next) => (listener = next),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function holdStream(res: ServerResponse, events: readonly RecordedEvent[]): HeldStream {
  let next = 0;
  const releaseNext = () => {
    if (next >= events.length) return false;
    res.write(events[next]!.bytes);
    next += 1;
    if (next === events.length) res.end();
    return true;
  };
  return {
    releaseNext,
    nextType: () => events[next]?.type,
    releaseRest: () => {
      while (releaseNext());
    },
  };
}
