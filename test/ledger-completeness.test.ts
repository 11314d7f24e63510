// Ledger completeness, end to end: every request of a key to a model operation leaves exactly one usage
// row with the status the client got (bodies that cannot be read, 413, 415, validation and refusals too); a
// client that leaves is a 499 with `completed: false`, and a stream it left that does not end within the
// drain is charged its worst case, never less than the output it was sent, on every protocol, translated
// (the built-in model) and passed through (fake upstreams); and `GET /v1/usage/records` pages through
// every row at every limit. What the drain reads on for is in abandoned-streams.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { openDatabase } from '../server/store/database.js';
import { newUsageRecordId, type UsageRecord } from '../server/usage/usage-record.js';
import { maxExportRows, maxListLimit, UsageStore } from '../server/usage/usage-store.js';
import { adminApi } from './helpers/admin-api.js';
import { startFakeUpstream, type FakeUpstream, type SseEvent } from './helpers/fake-upstream.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixtureSseEvents } from './helpers/upstream-fixtures.js';
import { baseUrlFor, upstreamKey } from './helpers/upstream-gateway.js';

const prices = { input_per_mtok: 3, output_per_mtok: 15 };
/** Shorter than every answer below that a client leaves: each is cut at the drain's bound. */
const drainSeconds = 0.5;
/** The worst case of a request that names no output cap (limits.default_output_tokens); Messages name 4,000. */
const defaultOutputTokens = 8_192;
const upstreamTypes = { chat: 'openai', responses: 'openai', claude: 'anthropic', gemini: 'gemini' } as const;
type Upstream = keyof typeof upstreamTypes;

let gateway: TestGateway;
const upstreams = new Map<Upstream, FakeUpstream>();

before(async () => {
  for (const name of Object.keys(upstreamTypes) as Upstream[]) upstreams.set(name, await startFakeUpstream());
  const config = configSchema.parse({
    providers: [
      // Paced, so that a client can leave in the middle of an answer.
      { id: 'builtin', type: 'builtin', chunk_delay_ms: 15 },
      ...(Object.entries(upstreamTypes) as Array<[Upstream, string]>).map(([name, type]) => ({
        id: `up-${name}`,
        type,
        base_url: baseUrlFor(type as 'openai', upstreams.get(name)!.origin),
        api_key: upstreamKey,
        ...(name === 'responses' ? { api: 'responses' } : {}),
      })),
    ],
    models: [
      { id: 'priced', provider: 'builtin', upstream_model: 'echo', pricing: prices },
      ...(Object.keys(upstreamTypes) as Upstream[]).map((name) => ({ id: `up-${name}`, provider: `up-${name}`, upstream_model: 'upstream-model', pricing: prices })),
    ],
    ledger: { abandoned_streams: { drain_seconds: drainSeconds } },
  });
  gateway = await startGateway({ config });
});
after(async () => {
  await gateway?.close();
  for (const upstream of upstreams.values()) await upstream.close();
});

const headersOf = (contentType = 'application/json') => ({
  authorization: `Bearer ${gateway.apiKey}`,
  'content-type': contentType,
  'anthropic-version': '2023-06-01',
});

/** Each protocol's model operations: the path for a model, and a valid (streamed, where it streams) body. */
const surfaces = [
  { name: 'Chat Completions', content: /"content":\s*"[^"]/g, path: () => '/v1/chat/completions', body: (model: string, text: string) => ({ model, messages: [{ role: 'user', content: text }], stream: true }) },
  { name: 'Responses', content: /"type":\s*"response\.output_text\.delta"/g, path: () => '/v1/responses', body: (model: string, text: string) => ({ model, input: text, stream: true, store: false }) },
  { name: 'Messages', content: /"type":\s*"text_delta"/g, path: () => '/v1/messages', body: (model: string, text: string) => ({ model, max_tokens: 4000, messages: [{ role: 'user', content: text }], stream: true }) },
  { name: 'Gemini SSE', content: /"text":\s*"[^"]/g, path: (model: string) => `/v1beta/models/${model}:streamGenerateContent?alt=sse`, body: (_model: string, text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] }) },
  { name: 'Gemini JSON array', content: /"text":\s*"[^"]/g, path: (model: string) => `/v1beta/models/${model}:streamGenerateContent`, body: (_model: string, text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] }) },
] as const;

async function post(path: string, body: string, contentType?: string): Promise<{ status: number; requestId: string }> {
  const response = await fetch(`${gateway.origin}${path}`, { method: 'POST', headers: headersOf(contentType), body });
  await response.arrayBuffer();
  return { status: response.status, requestId: response.headers.get('x-request-id')! };
}

describe('every request to a model operation leaves one row with its real status', () => {
  const modelOf = (path: string) => (path.startsWith('/v1beta/models/') ? 'priced' : null);

  for (const surface of surfaces) {
    test(`${surface.name}: malformed JSON is a 400 row, an over-limit body a 413 row`, async () => {
      const path = surface.path('priced');
      const malformed = await post(path, '{"model": "priced", "messages": [');
      assert.equal(malformed.status, 400);
      const oversized = await post(path, JSON.stringify(surface.body('priced', 'a'.repeat(1_100_000))));
      assert.equal(oversized.status, 413);
      for (const [{ requestId }, status] of [[malformed, 400], [oversized, 413]] as const) {
        const row = await ledgerRow(gateway.origin, gateway.apiKey, requestId);
        assert.deepEqual([row.status, row.completed, row.model, row.output_tokens, row.cost_usd], [status, true, modelOf(path), 0, 0]);
      }
    });
  }

  test('unsupported media types (415), invalid bodies (400) and unknown models (404) have rows too', async () => {
    const unsupported = await post('/v1/chat/completions', 'hello', 'text/plain');
    const invalid = await post('/v1/chat/completions', JSON.stringify({ model: 'priced' }));
    const unknown = await post('/v1/messages', JSON.stringify({ model: 'nope', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }));
    const cases = [[unsupported, 415, null], [invalid, 400, 'priced'], [unknown, 404, 'nope']] as const;
    for (const [{ status, requestId }, expected, model] of cases) {
      assert.equal(status, expected);
      const row = await ledgerRow(gateway.origin, gateway.apiKey, requestId);
      assert.deepEqual([row.status, row.completed, row.model], [expected, true, model]);
    }
  });

  test('a request without a valid key has no account and no row', async () => {
    const before = await rowCount();
    const response = await fetch(`${gateway.origin}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    assert.equal(response.status, 401);
    await sleep(1_300); // longer than the ledger's write-behind batch
    assert.equal(await rowCount(), before);
  });
});

/** Rows of the test key (of the default account) in the last 30 days. */
async function rowCount(): Promise<number> {
  const response = await fetch(`${gateway.origin}/v1/usage?group_by=model`, { headers: { authorization: `Bearer ${gateway.apiKey}` } });
  const { data } = (await response.json()) as { data: Array<{ requests: number }> };
  return data.reduce((sum, bucket) => sum + bucket.requests, 0);
}


/**
 * Streams a request and hangs up after `events` content events have arrived. Returns its request ID and
 * the characters of generated text the client saw (a lower bound of what the gateway sent).
 */
async function streamAndLeave(path: string, body: unknown, contentEvent: RegExp, events: number): Promise<{ requestId: string; seen: number }> {
  const controller = new AbortController();
  const response = await fetch(`${gateway.origin}${path}`, { method: 'POST', headers: headersOf(), body: JSON.stringify(body), signal: controller.signal });
  assert.equal(response.status, 200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while ((text.match(contentEvent)?.length ?? 0) < events) {
    const { value, done } = await reader.read();
    assert.ok(!done, `the stream ended before ${events} content events:\n${text}`);
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  await reader.cancel().catch(() => undefined);
  return { requestId: response.headers.get('x-request-id')!, seen: text.match(contentEvent)!.length };
}

/** What a client that left after some of an answer that then did not end within the drain must be charged: the worst case. */
function assertChargedWorstCase(row: UsageRecord | Awaited<ReturnType<typeof ledgerRow>>, minOutputTokens: number, cap: number) {
  assert.deepEqual([row.status, row.completed, row.estimated], [499, false, true]);
  assert.ok(row.output_tokens >= minOutputTokens, `${row.output_tokens} output tokens: at least the ${minOutputTokens} the client saw`);
  assert.equal(row.output_tokens, Math.max(cap, minOutputTokens), 'the output cap (or the default one), unless more was sent');
  const cost = ((row.input_tokens - row.cached_input_tokens) * prices.input_per_mtok + row.output_tokens * prices.output_per_mtok) / 1e6;
  assert.ok(Math.abs(row.cost_usd - cost) < 1e-12, `cost ${row.cost_usd} is the tokens at the model's prices (${cost})`);
  assert.ok(row.cost_usd >= (row.output_tokens * prices.output_per_mtok) / 1e6 && row.output_tokens > 0, 'the output is charged');
}

describe('a client that leaves mid-stream is a 499 charged the worst case when the answer outlasts the drain', () => {
  // The built-in model restates the message word by word, each word (" alpha") six characters.
  const words = 300;
  const message = Array.from({ length: words }, () => 'alpha').join(' ');
  const leaveAfter = 8;

  for (const surface of surfaces) {
    test(`${surface.name}, translated (built-in model)`, async () => {
      const { requestId, seen } = await streamAndLeave(surface.path('priced'), surface.body('priced', message), surface.content, leaveAfter);
      const row = await ledgerRow(gateway.origin, gateway.apiKey, requestId);
      assert.equal(row.input_tokens > 0, true);
      // The whole answer restates every word: well over `words` × 6 characters.
      assertChargedWorstCase(row, Math.ceil(((seen - 1) * 5) / 4), surface.name === 'Messages' ? 4_000 : defaultOutputTokens);
    });
  }

  /** Upstream streams that begin an answer, repeat one content event 60 times and never end. */
  const repeats = 60;
  const passThrough: Array<{ surface: (typeof surfaces)[number]; upstream: Upstream; events: () => { events: SseEvent[]; characters: number } }> = [
    { surface: surfaces[0], upstream: 'chat', events: () => repeating(fixtureSseEvents('openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat'), (data) => (data.choices?.[0]?.delta?.content ?? '') as string) },
    { surface: surfaces[1], upstream: 'responses', events: () => repeating(fixtureSseEvents('openai-responses/stream-text-after-tool-output.chunks.txt', 'openai-responses'), (data) => (data.type === 'response.output_text.delta' ? data.delta : '') as string) },
    { surface: surfaces[2], upstream: 'claude', events: () => repeating(fixtureSseEvents('anthropic-messages/stream-text.chunks.txt', 'anthropic-messages'), (data) => (data.delta?.type === 'text_delta' ? data.delta.text : '') as string) },
    ...[surfaces[3], surfaces[4]].map((surface) => ({
      surface,
      upstream: 'gemini' as const,
      // Chunks that report the prompt only; Gemini's own counts of the output so far are below.
      events: () => repeating([{ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'lorem ipsum dolor ' }] }, index: 0 }], usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } }) }], (data) => data.candidates[0].content.parts[0].text as string),
    })),
  ];

  for (const { surface, upstream, events } of passThrough) {
    test(`${surface.name}, passed through`, async () => {
      const { events: sse, characters } = events();
      upstreams.get(upstream)!.enqueue({ sse, chunkDelayMs: 10, holdOpen: true, crlf: upstream === 'gemini' });
      const { requestId, seen } = await streamAndLeave(surface.path(`up-${upstream}`), surface.body(`up-${upstream}`, 'Say something long.'), surface.content, leaveAfter);
      const row = await ledgerRow(gateway.origin, gateway.apiKey, requestId);
      assertChargedWorstCase(row, Math.ceil((seen * characters) / 4), surface.name === 'Messages' ? 4_000 : defaultOutputTokens);
      if (upstream === 'claude') assert.ok(row.input_tokens >= 12, 'never less than the prompt Anthropic reported at the start');
    });
  }

  /** The events up to the first that carries content, then that one `repeats` times; and its content's length. */
  function repeating(events: SseEvent[], contentOf: (data: any) => string): { events: SseEvent[]; characters: number } { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
    const at = events.findIndex((event) => event.data !== '[DONE]' && contentOf(JSON.parse(event.data)) !== '');
    const characters = contentOf(JSON.parse(events[at]!.data)).length;
    return { events: [...events.slice(0, at), ...Array.from({ length: repeats }, () => events[at]!)], characters };
  }

  test('Gemini passed through: never less than the output its chunks reported so far', async () => {
    const text = 'lorem ipsum dolor ';
    const perChunk = 4;
    const sse = Array.from({ length: repeats }, (_, index) => ({
      data: JSON.stringify({
        candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }],
        usageMetadata: { promptTokenCount: 9, candidatesTokenCount: perChunk * (index + 1), totalTokenCount: 9 + perChunk * (index + 1) },
      }),
    }));
    upstreams.get('gemini')!.enqueue({ sse, chunkDelayMs: 10, holdOpen: true, crlf: true });
    const { requestId, seen } = await streamAndLeave(surfaces[3].path('up-gemini'), surfaces[3].body('up-gemini', 'Say something long.'), surfaces[3].content, leaveAfter);
    const row = await ledgerRow(gateway.origin, gateway.apiKey, requestId);
    assertChargedWorstCase(row, seen * perChunk, defaultOutputTokens);
    assert.ok(row.input_tokens >= 9, 'never less than the prompt Gemini reported');
  });

  test('usage the upstream reported stands when its stream ends within the drain', async () => {
    const events = fixtureSseEvents('openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat').filter((event) => event.data !== '[DONE]');
    const reported = JSON.parse(events.at(-1)!.data).usage as { prompt_tokens: number; completion_tokens: number };
    // The stream's end comes after a pause in which the client leaves.
    const sse = events.map((event) => `data: ${event.data}\n\n`).join('');
    upstreams.get('chat')!.enqueue({ chunks: [sse, 'data: [DONE]\n\n'], chunkDelayMs: 200, ending: 'end', headers: { 'content-type': 'text/event-stream' } });
    const controller = new AbortController();
    const body = { model: 'up-chat', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } };
    const response = await fetch(`${gateway.origin}/v1/chat/completions`, { method: 'POST', headers: headersOf(), body: JSON.stringify(body), signal: controller.signal });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('"completion_tokens"')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.deepEqual(
      [row.status, row.completed, row.estimated, row.input_tokens, row.output_tokens],
      [499, false, false, reported.prompt_tokens, reported.completion_tokens],
    );
  });

  test('a stream read to its end is complete, with the usage the model reported', async () => {
    const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'priced', messages: [{ role: 'user', content: 'alpha beta gamma' }], stream: true }).withResponse();
    for await (const _chunk of stream.data);
    const row = await ledgerRow(gateway.origin, gateway.apiKey, stream.response.headers.get('x-request-id')!);
    assert.deepEqual([row.status, row.completed, row.estimated], [200, true, false]);
    assert.ok(row.output_tokens > 0);
  });

  test('a client gone before any byte of an answer that outlasts the drain is a 499 charged the worst case, not a 200', async () => {
    for (const [path, body] of [
      ['/v1/chat/completions', { model: 'priced', messages: [{ role: 'user', content: message }] }],
      ['/v1/messages', { model: 'priced', max_tokens: 4000, messages: [{ role: 'user', content: message }] }],
    ] as const) {
      const controller = new AbortController();
      const started = fetch(`${gateway.origin}${path}`, { method: 'POST', headers: headersOf(), body: JSON.stringify(body), signal: controller.signal });
      await sleep(300); // the paced model takes seconds to finish the answer it collects
      controller.abort();
      await assert.rejects(started);
      await sleep(drainSeconds * 1000);
      // The request ID never reached the client: the newest row of the operation is this request's.
      const row = (await recentRows(5)).find((candidate) => candidate.endpoint === `POST ${path}`);
      assert.ok(row, `a row for ${path}`);
      assert.deepEqual([row.status, row.completed, row.estimated, row.output_tokens], [499, false, true, path === '/v1/messages' ? 4_000 : defaultOutputTokens]);
    }
  });
});

/** The newest rows of the test key's account, waiting for the write-behind batch. */
async function recentRows(limit: number): Promise<UsageRecord[]> {
  await sleep(1_300);
  const response = await fetch(`${gateway.origin}/v1/usage/records?limit=${limit}`, { headers: { authorization: `Bearer ${gateway.apiKey}` } });
  return ((await response.json()) as { data: UsageRecord[] }).data;
}

describe('GET /v1/usage/records pages through every row at every limit', () => {
  const total = maxListLimit + 3;
  let key: string;
  let keyId: string;
  let ids: string[];

  before(async () => {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'pages' });
    ({ key, id: keyId } = await admin.createKey(account.id, { name: 'reader' }));
    // Rows written straight to the gateway's own store: many share a millisecond, so ties are broken by ID.
    const db = await openDatabase({ dataDir: gateway.dataDir });
    const now = Date.now() - 60_000;
    const rows = Array.from({ length: total }, (_, index): UsageRecord => ({
      id: newUsageRecordId(), created_at: now + Math.floor(index / 3), request_id: `req_${index}`, account_id: account.id, key_id: keyId, model: 'priced',
      deployment: null, protocol: 'openai-chat', endpoint: 'POST /v1/chat/completions', status: 200, input_tokens: 1, cached_input_tokens: 0,
      output_tokens: 1, reasoning_tokens: 0, cache_write_input_tokens: 0, cache_write_1h_input_tokens: 0, price_tier_above_tokens: 0, service_tier: null, batch: false, batch_id: null, image_count: 0, latency_ms: 1, cost_usd: 0, estimated: false, completed: true,
    }));
    await new UsageStore(db).insertMany(rows);
    await db.destroy();
    ids = rows.map((row) => row.id);
  });

  async function readAll(limit: number): Promise<string[]> {
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const query: string = `limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
      const response = await fetch(`${gateway.origin}/v1/usage/records?${query}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 200);
      const page = (await response.json()) as { data: UsageRecord[]; next_before: string | null };
      assert.ok(page.data.length <= limit);
      seen.push(...page.data.map((row) => row.id));
      before = page.next_before;
    } while (before !== null);
    return seen;
  }

  for (const limit of [1, 7, maxListLimit]) {
    test(`limit=${limit}`, async () => {
      const seen = await readAll(limit);
      assert.equal(seen.length, total, 'as many rows as stored');
      assert.deepEqual([...seen].sort(), [...ids].sort(), 'every row exactly once');
    });
  }

  test('a limit above the largest page is refused with a 400 that states the largest', async () => {
    const spec = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')) as { components: { parameters: Record<string, { schema: { maximum: number } }> } };
    const maximum = spec.components.parameters.UsageRecordLimit!.schema.maximum;
    assert.equal(maximum, maxExportRows, 'the contract and the store agree on the largest export (a JSON page is refused past maxListLimit)');
    const response = await fetch(`${gateway.origin}/v1/usage/records?limit=${maxListLimit + 1}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(response.status, 400);
    assert.match(JSON.stringify(await response.json()), new RegExp(String(maxListLimit)));
  });
});
