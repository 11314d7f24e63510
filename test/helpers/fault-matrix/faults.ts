import { readFileSync } from 'node:fs';
import type { ProviderType } from '../../../server/config/config-schema.js';
import type { FakeReply, RecordedRequest } from '../fake-upstream.js';
import { fixturePath, fixtureSseEvents, toSseBody, type WireProtocol } from '../upstream-fixtures.js';

/** What the client must see for a fault, given whether it streams. */
export interface FaultOutcome {
  /** Upstream calls made: the configured attempts while nothing reached the client, else exactly 1. */
  attempts: number;
  /** The error status, when the failure came before the answer started. */
  status?: number;
  /** The answer had started (200 and events sent): the error must come in-band. */
  inStream?: boolean;
  retryAfter?: string;
}

export interface Fault {
  name: string;
  /** The upstream's reply to one call, as a stream or a JSON body as the call asked; every attempt gets the same. */
  reply: FakeReply;
  /** `started`: the client streams and so did the upstream call, so events can reach the client before the fault. */
  expect(started: boolean): FaultOutcome;
}

/**
 * Whether the gateway asked the upstream for a stream. It decides, not the client: providers stream from
 * upstream whenever they can, also for clients that want one JSON answer.
 */
export function asksForStream(request: RecordedRequest): boolean {
  return request.url.includes(':streamGenerateContent') || (request.json as { stream?: unknown } | undefined)?.stream === true;
}

/** A reply that depends on whether the call asked for a stream. */
function byKind(stream: FakeReply, body: FakeReply): FakeReply {
  return { respond: (request) => (asksForStream(request) ? stream : body) };
}

interface UpstreamRecordings {
  wire: WireProtocol;
  streamFixture: string;
  bodyFixture: string;
  /** The provider's error body for an HTTP status, as its API sends it. */
  errorBody(status: number): unknown;
}

const recordings: Record<'openai' | 'anthropic' | 'gemini', UpstreamRecordings> = {
  openai: {
    wire: 'openai-chat',
    streamFixture: 'openai-chat/stream-text-include-usage.chunks.txt',
    bodyFixture: 'openai-chat/non-stream-text.json',
    errorBody: (status) => ({ error: { message: `The server had an error (${status})`, type: status === 429 ? 'requests' : 'server_error', param: null, code: null } }),
  },
  anthropic: {
    wire: 'anthropic-messages',
    streamFixture: 'anthropic-messages/stream-text.chunks.txt',
    bodyFixture: 'anthropic-messages/non-stream-text.json',
    errorBody: (status) => ({
      type: 'error',
      error: { type: status === 429 ? 'rate_limit_error' : status === 503 ? 'overloaded_error' : 'api_error', message: `Internal server error (${status})` },
    }),
  },
  gemini: {
    wire: 'gemini',
    streamFixture: 'gemini/stream-text.chunks.txt',
    bodyFixture: 'gemini/non-stream-text.json',
    errorBody: (status) => ({
      error: { code: status, message: `An internal error has occurred (${status})`, status: status === 429 ? 'RESOURCE_EXHAUSTED' : status === 503 ? 'UNAVAILABLE' : 'INTERNAL' },
    }),
  },
};

const sseHeaders = { 'content-type': 'text/event-stream' };
/** Longer than the idle limit the fault tests configure (400 ms), so each pause in a drip is a stall. */
const dripPauseMs = 700;

const retried = (status: number): FaultOutcome => ({ attempts: 2, status });
const inStream: FaultOutcome = { attempts: 1, inStream: true };

/** A recorded good answer of the upstream's protocol, streamed or not as the call asked. */
export function goodAnswer(type: ProviderType): FakeReply {
  const { streamFixture, bodyFixture, wire } = recordingsOf(type);
  return byKind({ fixture: streamFixture, protocol: wire }, { fixture: bodyFixture, protocol: wire });
}

/**
 * Every fault the issue names, as an upstream of `type` would commit it. "After the start" faults first send
 * the opening events of a real recording, so the gateway has answered 200 and sent events before they hit.
 */
export function faultsFor(type: ProviderType): Fault[] {
  const recording = recordingsOf(type);
  const events = fixtureSseEvents(recording.streamFixture, recording.wire);
  // Up to the first event with text in it, so that the client has been sent part of the answer.
  const opening = toSseBody(events.slice(0, events.findIndex((event) => /"(text|content)":"[^"]/.test(event.data)) + 1));
  const body = readFileSync(fixturePath(recording.bodyFixture), 'utf8');
  const status = (code: number, headers?: Record<string, string>): FakeReply => ({ status: code, json: recording.errorBody(code), headers });
  return [
    { name: 'HTTP 500', reply: status(500), expect: () => retried(502) },
    { name: 'HTTP 502', reply: status(502), expect: () => retried(502) },
    { name: 'HTTP 503', reply: status(503), expect: () => retried(503) },
    {
      // Longer than max_retry_after_ms: the gateway does not wait and passes the 429 on with its retry-after.
      name: 'HTTP 429 with retry-after',
      reply: status(429, { 'retry-after': '1' }),
      expect: () => ({ attempts: 1, status: 429, retryAfter: '1' }),
    },
    {
      name: 'connection reset mid-body',
      reply: byKind({ headers: sseHeaders, chunks: [opening, 'data: {"trunc'], chunkDelayMs: 30, ending: 'reset' }, { chunks: [half(body)], ending: 'reset' }),
      expect: (started) => (started ? inStream : retried(502)),
    },
    {
      // Streams: events stop without the protocol's end marker. Bodies: the connection closes before
      // content-length bytes came.
      name: 'stops mid-stream',
      reply: byKind(
        { headers: sseHeaders, chunks: [opening], ending: 'end' },
        { headers: { 'content-length': String(Buffer.byteLength(body)) }, chunks: [half(body)], ending: 'close' },
      ),
      expect: (started) => (started ? inStream : retried(502)),
    },
    {
      name: 'malformed JSON',
      reply: byKind({ headers: sseHeaders, chunks: ['data: {"id": "x", "choi\n\n'], ending: 'hold' }, { chunks: [half(body)], ending: 'end' }),
      expect: () => retried(502),
    },
    {
      // Streams: a broken frame after good ones, and the connection left open: the gateway must close it.
      // Bodies: a proxy's HTML page where JSON was asked for.
      name: 'malformed SSE frame',
      reply: byKind(
        { headers: sseHeaders, chunks: [opening, 'data: {not json at all}\n\n'], chunkDelayMs: 30, ending: 'hold' },
        { headers: { 'content-type': 'text/html' }, chunks: ['<html><body>Bad gateway</body></html>'], ending: 'end' },
      ),
      expect: (started) => (started ? inStream : retried(502)),
    },
    {
      // One byte at a time, each after a pause longer than idle_ms.
      name: 'drips bytes slowly',
      reply: byKind(
        { headers: sseHeaders, chunks: [opening, ...'data: {}\n\n'], chunkDelayMs: dripPauseMs, ending: 'end' },
        { chunks: [...body.slice(0, 20)], chunkDelayMs: dripPauseMs, ending: 'end' },
      ),
      expect: (started) => (started ? inStream : retried(504)),
    },
    { name: 'never answers', reply: { delayMs: 60_000, then: { json: {} } }, expect: () => retried(504) },
  ];
}

const half = (text: string) => text.slice(0, Math.floor(text.length / 2));

function recordingsOf(type: ProviderType): UpstreamRecordings {
  if (type !== 'openai' && type !== 'anthropic' && type !== 'gemini') throw new Error(`no recordings for ${type} upstreams`);
  return recordings[type];
}
