// Upstream events that are JSON but not the shape of their event (a delta without its delta, `choices` that
// is not an array), on translated paths: the client gets its protocol's own error, in-band once the answer
// has started, else as a retried 502 (the router may retry, as for a garbled frame). What the upstream adds
// (unknown fields, block types) passes. Unit tests per provider are in server/providers/*/stream-schemas.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { configSchema, type ProviderType } from '../server/config/config-schema.js';
import { startFakeUpstream, type FakeUpstream, type SseEvent } from './helpers/fake-upstream.js';
import { clientCalls, type ClientProtocol } from './helpers/fault-matrix/client-calls.js';
import { assertErrorBody, assertStreamEndsWithError } from './helpers/fault-matrix/protocol-errors.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixtureSseEvents, type WireProtocol } from './helpers/upstream-fixtures.js';
import { baseUrlFor, upstreamKey } from './helpers/upstream-gateway.js';

/** An upstream type, a client protocol it is translated to, and what a malformed event of its wire looks like. */
interface Pairing {
  type: ProviderType;
  client: ClientProtocol;
  wire: WireProtocol;
  fixture: string;
  malformed: SseEvent;
  /** The schema's complaint, as it must reach the client. */
  complaint: string;
}

const pairings: Pairing[] = [
  {
    type: 'anthropic',
    client: 'openai-chat',
    wire: 'anthropic-messages',
    fixture: 'anthropic-messages/stream-text.chunks.txt',
    malformed: { event: 'content_block_delta', data: '{"type":"content_block_delta","index":0}' },
    complaint: '(anthropic) sent a malformed content_block_delta event: delta: required',
  },
  {
    type: 'gemini',
    client: 'anthropic-messages',
    wire: 'gemini',
    fixture: 'gemini/stream-text.chunks.txt',
    malformed: { data: '{"candidates":{"content":{"parts":[]}}}' },
    complaint: '(gemini) sent a malformed GenerateContentResponse: candidates: Invalid input: expected array, received object',
  },
  {
    type: 'openai',
    client: 'gemini',
    wire: 'openai-chat',
    fixture: 'openai-chat/stream-text-include-usage.chunks.txt',
    malformed: { data: '{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":42}}]}' },
    complaint: '(openai) sent a malformed chunk: choices[0].delta.content: Invalid input: expected string or array, received number',
  },
];

const routing = { max_attempts: 2, backoff_ms: 10, max_backoff_ms: 20, cooldown_ms: 0 };
const modelOf = (pairing: Pairing) => `${pairing.type}-to-${pairing.client}`;

let gateway: TestGateway;
const upstreams = new Map<string, FakeUpstream>();

before(async () => {
  for (const pairing of pairings) upstreams.set(modelOf(pairing), await startFakeUpstream());
  const providers = pairings.map((pairing) => ({
    id: modelOf(pairing),
    type: pairing.type,
    base_url: baseUrlFor(pairing.type, upstreams.get(modelOf(pairing))!.origin),
    api_key: upstreamKey,
  }));
  const models = pairings.map((pairing) => ({ id: modelOf(pairing), provider: modelOf(pairing), upstream_model: 'upstream-model' }));
  gateway = await startGateway({ config: configSchema.parse({ providers, models, routing }) });
});

after(async () => {
  await gateway.close();
  for (const upstream of upstreams.values()) await upstream.close();
});

/** One streamed call of the pairing's client protocol; every attempt gets the same events. */
async function streamCall(pairing: Pairing, events: SseEvent[]) {
  const upstream = upstreams.get(modelOf(pairing))!;
  const seenBefore = upstream.requests.length;
  upstream.enqueue(...Array.from({ length: routing.max_attempts }, () => ({ sse: events })));
  const call = clientCalls[pairing.client](modelOf(pairing), true);
  const response = await request(`${gateway.origin}${call.path}`, {
    method: 'POST',
    headers: { ...call.headers(gateway.apiKey), 'content-type': 'application/json' },
    body: JSON.stringify(call.body),
  });
  const text = await response.body.text();
  const attempts = upstream.requests.length - seenBefore;
  upstream.discardQueued();
  return { status: response.statusCode, headers: response.headers, text, attempts };
}

/** The recording's events up to and including the first one with text in it. */
function opening(pairing: Pairing): SseEvent[] {
  const events = fixtureSseEvents(pairing.fixture, pairing.wire);
  return events.slice(0, events.findIndex((event) => /"(text|content)":"[^"]/.test(event.data)) + 1);
}

describe('a malformed upstream event on a translated stream', { concurrency: true }, () => {
  // Each pairing has its own upstream, whose queue its cases take in turn.
  for (const pairing of pairings) {
    test(`${pairing.type} upstream, ${pairing.client} client`, async (t) => {
      await t.test('in-band error once the answer started', async () => {
        const result = await streamCall(pairing, [...opening(pairing), pairing.malformed]);
        const context = `${result.status} ${result.text.slice(0, 600)}`;
        assert.equal(result.status, 200, context);
        assert.equal(result.attempts, 1, `${context}: no retry once the client has part of the answer`);
        assertStreamEndsWithError(pairing.client, result.text, context);
        assert.ok(result.text.includes(pairing.complaint), `${context}: names what was wrong`);
      });

      await t.test("retried, then a 502 in the protocol's shape, before the answer started", async () => {
        const result = await streamCall(pairing, [pairing.malformed]);
        const context = `${result.status} ${result.text.slice(0, 600)}`;
        assert.equal(result.status, 502, context);
        assert.equal(result.attempts, routing.max_attempts, `${context}: retried while nothing reached the client`);
        assertErrorBody(pairing.client, result.status, result.headers, result.text, context);
        assert.ok(result.text.includes(pairing.complaint), `${context}: names what was wrong`);
      });
    });
  }
});

test('unknown fields, block types and events from an anthropic upstream pass to an openai-chat client', async () => {
  const pairing = pairings[0]!;
  const sse = (data: Record<string, unknown>): SseEvent => ({ event: String(data.type), data: JSON.stringify(data) });
  const result = await streamCall(pairing, [
    sse({ type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 3, output_tokens: 1 }, a_new_field: {} } }),
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'a_new_block', payload: [1, 2] } }),
    sse({ type: 'content_block_stop', index: 0 }),
    sse({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '', citations: [] } }),
    sse({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Still here.', extra: true } }),
    sse({ type: 'content_block_stop', index: 1 }),
    sse({ type: 'a_new_event', anything: 'goes' }),
    sse({ type: 'message_delta', delta: { stop_reason: 'a_new_reason' }, usage: { output_tokens: 3 } }),
    sse({ type: 'message_stop' }),
  ]);
  assert.equal(result.status, 200, result.text);
  const chunks = result.text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)) as { choices: Array<{ delta: { content?: string }; finish_reason: string | null }> });
  assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'Still here.');
  assert.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'stop');
  assert.ok(result.text.trimEnd().endsWith('data: [DONE]'), result.text);
});
