// Fake OpenAI / Anthropic / Gemini servers for end-to-end tests: plain node:http on 127.0.0.1, a FIFO of
// scripted replies, every request recorded, and client disconnects timestamped so abort propagation can be
// measured. Fixture replies follow the replay recipe in test/fixtures/upstream-recorded/README.md.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SseEvent } from '../../server/providers/upstream/read-sse.js';
import { fixturePath, fixtureSseEvents, type WireProtocol } from './upstream-fixtures.js';

export type { SseEvent, WireProtocol };

/**
 * One request the fake received. Timestamps use `performance.now()`, the same clock as
 * {@link FakeUpstream.connectionClosures}.
 *
 * @example
 * const [request] = upstream.requests;
 * assert.equal(request.headers['x-api-key'], 'sk-ant-test');
 * assert.equal((request.json as { model: string }).model, 'claude-sonnet-4-5');
 */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent: `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  url: string;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: string;
  /** The body's bytes, for binary bodies such as multipart uploads. */
  raw: Buffer;
  /** The parsed body, or undefined when it is empty or not JSON. */
  json: unknown;
  receivedAt: number;
}

type Ending = 'end' | 'close' | 'reset' | 'hold';

/** Extra response headers; they override the defaults (`content-type`). */
type Headers = Record<string, string>;

/**
 * What the fake answers to one request. See {@link FakeUpstream.enqueue}.
 *
 * @example
 * upstream.enqueue(
 *   { status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after': '0' } },
 *   { sse: [{ data: '{"a":1}' }, { data: '[DONE]' }], chunkDelayMs: 5 },
 *   { fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' },
 *   { destroy: true },
 *   { delayMs: 500, then: { json: {} } },
 *   { chunks: ['{"id":', '"x"'], chunkDelayMs: 50, ending: 'reset' },
 * );
 */
export type FakeReply =
  | { status?: number; json: unknown; headers?: Headers }
  | { status?: number; bytes: Buffer; headers?: Headers }
  | {
      status?: number;
      /** Events, each sent in its own write; a string is sent as one raw write. */
      sse: SseEvent[] | string;
      chunkDelayMs?: number;
      headers?: Headers;
      /** Keep the response open after the last event until the client goes away. */
      holdOpen?: boolean;
      /** End lines with `\r\n` (events with `\r\n\r\n`), as the live Gemini API does. */
      crlf?: boolean;
    }
  | { fixture: string; protocol: WireProtocol; status?: number; chunkDelayMs?: number; holdOpen?: boolean }
  | { destroy: true }
  | { delayMs: number; then: FakeReply }
  | {
      status?: number;
      headers?: Headers;
      /** Written one by one, `chunkDelayMs` apart: a drip of single bytes, a body cut short, … */
      chunks: Array<string | Buffer>;
      chunkDelayMs?: number;
      /** After the last chunk: finish the response, close the connection (FIN), reset it (RST), or hold it open. */
      ending: Ending;
    }
  /** Decided when the request is in: e.g. a stream or a JSON body, as the request asked. */
  | { respond: (request: RecordedRequest) => FakeReply };

/** A reply with its fixture already read, so a bad fixture name fails at `enqueue`. */
type Planned =
  | { status: number; body: string | Buffer; headers: Headers }
  | { status: number; sse: SseEvent[] | string; chunkDelayMs: number; headers: Headers; holdOpen: boolean; crlf: boolean }
  | { destroy: true }
  | { delayMs: number; then: Planned }
  | { status: number; chunks: Array<string | Buffer>; chunkDelayMs: number; headers: Headers; ending: Ending }
  | { respond: (request: RecordedRequest) => FakeReply };

/**
 * A running fake upstream. Point a provider's base URL at `origin`.
 *
 * @example
 * const upstream = await startFakeUpstream();
 * upstream.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' });
 * // ... call the gateway configured with baseUrl: upstream.origin ...
 * assert.equal(upstream.requests[0].url, '/v1/messages');
 * await upstream.close();
 */
export interface FakeUpstream {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  /** Queue replies; each incoming request takes the next one. An empty queue answers 500. */
  enqueue(...replies: FakeReply[]): void;
  /** Drops the replies no request has taken yet and says how many there were. */
  discardQueued(): number;
  /** `performance.now()` of each response whose connection closed before the reply finished. */
  connectionClosures: number[];
  /** Resolves with the next closure not yet returned by an earlier call; rejects after `timeoutMs`. */
  waitForClosure(timeoutMs: number): Promise<number>;
  /** Destroys every open connection and stops listening. */
  close(): Promise<void>;
}

function plan(reply: FakeReply): Planned {
  if ('destroy' in reply || 'respond' in reply) return reply;
  if ('chunks' in reply) {
    const { status = 200, headers, chunks, chunkDelayMs = 0, ending } = reply;
    return { status, chunks, chunkDelayMs, ending, headers: { 'content-type': 'application/json', ...headers } };
  }
  if ('delayMs' in reply) return { delayMs: reply.delayMs, then: plan(reply.then) };
  if ('bytes' in reply) return { status: reply.status ?? 200, body: reply.bytes, headers: { 'content-type': 'application/octet-stream', ...reply.headers } };
  if ('json' in reply) return { status: reply.status ?? 200, body: JSON.stringify(reply.json), headers: { 'content-type': 'application/json', ...reply.headers } };
  if ('sse' in reply) {
    const { status = 200, sse, chunkDelayMs = 0, headers, holdOpen = false, crlf = false } = reply;
    return { status, sse, chunkDelayMs, holdOpen, crlf, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers } };
  }
  const { fixture, protocol, status, chunkDelayMs, holdOpen } = reply;
  if (fixture.endsWith('.chunks.txt')) {
    return plan({ sse: fixtureSseEvents(fixture, protocol), status, chunkDelayMs, holdOpen, crlf: protocol === 'gemini' });
  }
  if (basename(fixture).startsWith('error-') && status === undefined) {
    throw new Error(`fake upstream: ${fixture} is an error body; give its HTTP status (see the fixtures README)`);
  }
  // The file's own bytes, so pretty-printed recordings are served exactly as recorded.
  return { status: status ?? 200, body: readFileSync(fixturePath(fixture), 'utf8'), headers: { 'content-type': 'application/json' } };
}

function formatEvent(event: SseEvent, crlf: boolean): string {
  const eol = crlf ? '\r\n' : '\n';
  const data = event.data.split('\n').map((line) => `data: ${line}${eol}`).join('');
  return `${event.event ? `event: ${event.event}${eol}` : ''}${data}${eol}`;
}

function recordHeaders(request: IncomingMessage): Headers {
  const headers: Headers = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // empty or not JSON
  }
}

/**
 * Starts a fake provider on 127.0.0.1 and a free port.
 *
 * @example
 * const upstream = await startFakeUpstream();
 * upstream.enqueue({ fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' });
 * const response = await fetch(`${upstream.origin}/v1/chat/completions`, { method: 'POST', body: '{}' });
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const queue: Planned[] = [];
  const requests: RecordedRequest[] = [];
  const connectionClosures: number[] = [];
  const closureWaiters: Array<(at: number) => void> = [];
  let closuresHandedOut = 0;
  const stopped = new AbortController();

  // Resolves false when close() cut the wait short.
  const pause = (ms: number): Promise<boolean> => sleep(ms, undefined, { signal: stopped.signal }).then(() => true, () => false);

  async function answer(reply: Planned, request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest): Promise<void> {
    if (response.destroyed) return;
    if ('respond' in reply) {
      await answer(plan(reply.respond(recorded)), request, response, recorded);
      return;
    }
    if ('destroy' in reply) {
      request.socket.destroy();
      return;
    }
    if ('delayMs' in reply) {
      if (await pause(reply.delayMs)) await answer(reply.then, request, response, recorded);
      return;
    }
    response.writeHead(reply.status, reply.headers);
    if ('body' in reply) {
      response.end(reply.body);
      return;
    }
    if ('chunks' in reply) {
      response.flushHeaders();
      for (const [index, chunk] of reply.chunks.entries()) {
        if (index > 0 && reply.chunkDelayMs > 0 && !(await pause(reply.chunkDelayMs))) return;
        if (response.destroyed) return;
        response.write(chunk);
      }
      if (reply.ending === 'end') response.end();
      else if (reply.ending === 'close') request.socket.end();
      // A short pause first, so the chunks leave before the reset and the peer sees a body cut short.
      else if (reply.ending === 'reset' && (await pause(20))) request.socket.resetAndDestroy();
      return;
    }
    response.flushHeaders();
    const writes = typeof reply.sse === 'string' ? [reply.sse] : reply.sse.map((event) => formatEvent(event, reply.crlf));
    for (const [index, chunk] of writes.entries()) {
      if (index > 0 && reply.chunkDelayMs > 0 && !(await pause(reply.chunkDelayMs))) return;
      if (response.destroyed) return;
      response.write(chunk);
    }
    if (!reply.holdOpen) response.end();
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    let destroyedOnPurpose = false;
    response.on('close', () => {
      if (response.writableFinished || destroyedOnPurpose) return;
      const at = performance.now();
      connectionClosures.push(at);
      closureWaiters.shift()?.(at);
    });
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const raw = Buffer.concat(parts);
    const body = raw.toString('utf8');
    const { method = 'GET', url = '/' } = request;
    const recorded = { method, url, headers: recordHeaders(request), body, raw, json: parseJson(body), receivedAt };
    requests.push(recorded);

    const reply = queue.shift() ?? plan({ status: 500, json: { error: { message: `fake upstream: no reply queued for ${method} ${url}` } } });
    destroyedOnPurpose = 'destroy' in reply || ('ending' in reply && (reply.ending === 'reset' || reply.ending === 'close'));
    await answer(reply, request, response, recorded);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `fake upstream: ${String(error)}` } }));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    connectionClosures,
    enqueue: (...replies) => void queue.push(...replies.map(plan)),
    discardQueued: () => queue.splice(0).length,
    waitForClosure(timeoutMs) {
      const ready = connectionClosures[closuresHandedOut];
      if (ready !== undefined) {
        closuresHandedOut += 1;
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          closureWaiters.splice(closureWaiters.indexOf(waiter), 1);
          reject(new Error(`fake upstream: no connection closed within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (at: number): void => {
          clearTimeout(timer);
          closuresHandedOut += 1;
          resolve(at);
        };
        closureWaiters.push(waiter);
      });
    },
    close() {
      stopped.abort();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A port on 127.0.0.1 that nothing listens on, for connection-refused tests. Another process could take
 * it in between, which is unlikely enough for tests.
 *
 * @example
 * const baseUrl = `http://127.0.0.1:${await unusedPort()}`;
 */
export async function unusedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
