// Issue 34, finding 3: a client that leaves early is charged what the upstream generated. The gateway reads
// the upstream on after the client left (ledger.abandoned_streams) until its usage arrives, on every client
// protocol, passed through and translated, streamed or not; when the drain's bound (time or bytes) or
// shutdown cuts it, the request is charged its worst case, marked estimated. The row stays a 499 with
// `completed: false`, and the spend limit's counters see the real charge.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { configSchema } from '../server/config/config-schema.js';
import { openDatabase } from '../server/store/database.js';
import { adminApi } from './helpers/admin-api.js';
import { startFakeUpstream, type FakeUpstream, type SseEvent } from './helpers/fake-upstream.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { spawnGateway } from './helpers/spawn-gateway.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixtureSseEvents } from './helpers/upstream-fixtures.js';
import { baseUrlFor, upstreamKey } from './helpers/upstream-gateway.js';

const prices = { input_per_mtok: 3, output_per_mtok: 15 };
/** What the upstream reports at the end of the issue's stream. */
const reported = { output: 30_000, reasoning: 29_990 };
/** The output cap every request names: above what the upstream reports, within the spend limit below. */
const cap = 32_000;
/** The day's spend limit of each test's account: the cap's worst case fits ($0.48), the reported output ($0.45) and one more capped request ($0.06) do not. */
const spendPerDay = 0.5;
/** How long each fake upstream pauses after its first content chunk: the client leaves meanwhile. */
const pauseMs = 300;
const drainSeconds = 2;
const drainBytes = 256 * 1024;

const upstreamTypes = { chat: 'openai', responses: 'openai', claude: 'anthropic', gemini: 'gemini' } as const;
type Upstream = keyof typeof upstreamTypes;

/** Each client protocol: its path, a streamed body with the cap, and what in its stream is generated content. */
const clients = {
  chat: { path: (_model: string) => '/v1/chat/completions', content: /"content":\s*"[^"]/, body: (model: string, stream = true) => ({ model, stream, max_completion_tokens: cap, messages: [{ role: 'user', content: 'Think hard.' }] }) },
  responses: { path: (_model: string) => '/v1/responses', content: /"type":\s*"response\.output_text\.delta"/, body: (model: string, stream = true) => ({ model, stream, store: false, max_output_tokens: cap, input: 'Think hard.' }) },
  messages: { path: (_model: string) => '/v1/messages', content: /"type":\s*"text_delta"/, body: (model: string, stream = true) => ({ model, stream, max_tokens: cap, messages: [{ role: 'user', content: 'Think hard.' }] }) },
  gemini: {
    path: (model: string, stream = true) => `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    content: /"text":\s*"[^"]/,
    body: () => ({ contents: [{ role: 'user', parts: [{ text: 'Think hard.' }] }], generationConfig: { maxOutputTokens: cap } }),
  },
} as const;
type Client = keyof typeof clients;

/** Each client protocol over the upstream that speaks it (passed through), and over one that does not (translated). */
const routes: Array<{ client: Client; upstream: Upstream; mode: 'passed through' | 'translated' }> = [
  { client: 'chat', upstream: 'chat', mode: 'passed through' },
  { client: 'chat', upstream: 'claude', mode: 'translated' },
  { client: 'messages', upstream: 'claude', mode: 'passed through' },
  { client: 'messages', upstream: 'gemini', mode: 'translated' },
  { client: 'responses', upstream: 'responses', mode: 'passed through' },
  { client: 'responses', upstream: 'chat', mode: 'translated' },
  { client: 'gemini', upstream: 'gemini', mode: 'passed through' },
  { client: 'gemini', upstream: 'chat', mode: 'translated' },
];

/**
 * A recorded stream of the upstream, split after its first content event, with its usage reports changed
 * to the issue's: 30,000 output tokens, 29,990 of them reasoning, reported at the end.
 */
function issueStream(upstream: Upstream): { first: SseEvent[]; rest: SseEvent[] } {
  const recordings: Record<Upstream, [string, Parameters<typeof fixtureSseEvents>[1], (data: any) => boolean]> = { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
    chat: ['openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat', (data) => Boolean(data.choices?.[0]?.delta?.content)],
    responses: ['openai-responses/stream-text-after-tool-output.chunks.txt', 'openai-responses', (data) => data.type === 'response.output_text.delta'],
    claude: ['anthropic-messages/stream-text.chunks.txt', 'anthropic-messages', (data) => data.type === 'content_block_delta'],
    gemini: ['gemini/stream-text.chunks.txt', 'gemini', (data) => Boolean(data.candidates?.[0]?.content?.parts?.[0]?.text)],
  };
  const [fixture, protocol, isContent] = recordings[upstream];
  const events = fixtureSseEvents(fixture, protocol).map((event, index, all) => {
    if (event.data.trim() === '[DONE]') return event;
    const data = JSON.parse(event.data);
    if (upstream === 'chat' && data.usage) data.usage = { prompt_tokens: 12, completion_tokens: reported.output, total_tokens: 12 + reported.output, completion_tokens_details: { reasoning_tokens: reported.reasoning } };
    if (upstream === 'responses' && data.type === 'response.completed') {
      data.response.usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: reported.output, output_tokens_details: { reasoning_tokens: reported.reasoning }, total_tokens: 12 + reported.output };
    }
    if (upstream === 'claude' && data.type === 'message_delta') data.usage = { output_tokens: reported.output };
    if (upstream === 'gemini' && index === all.length - 1) {
      data.usageMetadata = { promptTokenCount: 12, candidatesTokenCount: reported.output - reported.reasoning, thoughtsTokenCount: reported.reasoning, totalTokenCount: 12 + reported.output };
    }
    return { ...event, data: JSON.stringify(data) };
  });
  const at = events.findIndex((event) => event.data.trim() !== '[DONE]' && isContent(JSON.parse(event.data)));
  return { first: events.slice(0, at + 1), rest: events.slice(at + 1) };
}

/** SSE text of events, as an upstream writes them. */
function sseText(events: SseEvent[]): string {
  return events.map((event) => `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`).join('');
}

/** The upstream's reply: its first content, a pause, then the rest (or, with `hold`, nothing more and never an end). */
function pausedStream(upstream: Upstream, options: { hold?: boolean; then?: string } = {}) {
  const { first, rest } = issueStream(upstream);
  const chunks = [sseText(first), ...(options.then ? [options.then] : []), ...(options.hold ? [] : [sseText(rest)])];
  return { chunks, chunkDelayMs: pauseMs, ending: options.hold ? ('hold' as const) : ('end' as const), headers: { 'content-type': 'text/event-stream' } };
}

let gateway: TestGateway;
const upstreams = new Map<Upstream, FakeUpstream>();

before(async () => {
  for (const name of Object.keys(upstreamTypes) as Upstream[]) upstreams.set(name, await startFakeUpstream());
  gateway = await startGateway({ config: gatewayConfig(drainSeconds) });
  // The first answer of each OpenAI operation compiles the published spec's checks (test mode), which holds
  // the event loop longer than the upstreams' pause: done here, before any client leaves.
  for (const client of ['chat', 'responses'] as const) {
    const response = await fetch(`${gateway.origin}${clients[client].path('probe')}`, { method: 'POST', headers: headersFor(gateway.apiKey), body: JSON.stringify(clients[client].body('probe')) });
    await response.text();
  }
});
after(async () => {
  await gateway?.close();
  for (const upstream of upstreams.values()) await upstream.close();
});

function gatewayConfig(seconds: number) {
  return configSchema.parse({
    providers: [
      { id: 'builtin', type: 'builtin' },
      ...(Object.entries(upstreamTypes) as Array<[Upstream, 'openai']>).map(([name, type]) => ({
        id: `up-${name}`,
        type,
        base_url: baseUrlFor(type, upstreams.get(name)!.origin),
        api_key: upstreamKey,
        ...(name === 'responses' ? { api: 'responses' } : {}),
      })),
    ],
    models: [
      { id: 'probe', provider: 'builtin', upstream_model: 'echo', pricing: prices },
      ...(Object.keys(upstreamTypes) as Upstream[]).map((name) => ({ id: `up-${name}`, provider: `up-${name}`, upstream_model: 'upstream-model', pricing: prices })),
    ],
    ledger: { abandoned_streams: { drain_seconds: seconds, drain_bytes: drainBytes } },
  });
}

/** A key of a new account whose day's spend is limited to {@link spendPerDay}. */
async function limitedKey(name: string): Promise<string> {
  const admin = adminApi(gateway);
  const account = await admin.createAccount({ name, limits: { spend_per_day_usd: spendPerDay } });
  return (await admin.createKey(account.id, { name })).key;
}

const headersFor = (key: string, requestId?: string) => ({
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
  'anthropic-version': '2023-06-01',
  ...(requestId && { 'x-request-id': requestId }),
});

/** Streams a request and hangs up once its first content has arrived. Returns its request ID. */
async function streamAndLeave(key: string, client: Client, model: string, origin = gateway.origin): Promise<string> {
  const { path, body, content } = clients[client];
  const controller = new AbortController();
  const response = await fetch(`${origin}${path(model)}`, { method: 'POST', headers: headersFor(key), body: JSON.stringify(body(model)), signal: controller.signal });
  assert.equal(response.status, 200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!content.test(text)) {
    const { value, done } = await reader.read();
    assert.ok(!done, `the stream ended before its first content:\n${text}`);
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  await reader.cancel().catch(() => undefined);
  return response.headers.get('x-request-id')!;
}

/** Whether the key's account still has room for one more capped request (the spend limit's counters). */
async function probeStatus(key: string): Promise<number> {
  const response = await fetch(`${gateway.origin}/v1/chat/completions`, { method: 'POST', headers: headersFor(key), body: JSON.stringify({ model: 'probe', max_tokens: 4_000, messages: [{ role: 'user', content: 'hi' }] }) });
  await response.arrayBuffer();
  return response.status;
}

type Row = Awaited<ReturnType<typeof ledgerRow>>;

function assertCostOfTokens(row: Row): void {
  const cost = ((row.input_tokens - row.cached_input_tokens) * prices.input_per_mtok + row.output_tokens * prices.output_per_mtok) / 1e6;
  assert.ok(Math.abs(row.cost_usd - cost) < 1e-9, `cost ${row.cost_usd} is the tokens at the model's prices (${cost})`);
}

describe('a client that leaves after the first chunk pays the 30,000 tokens the upstream reports at the end', () => {
  for (const { client, upstream, mode } of routes) {
    test(`${client}, ${mode} (${upstreamTypes[upstream]}${upstream === 'responses' ? ' responses' : ''} upstream)`, async () => {
      const key = await limitedKey(`${client}-${upstream}`);
      upstreams.get(upstream)!.enqueue(pausedStream(upstream));
      const requestId = await streamAndLeave(key, client, `up-${upstream}`);
      const row = await ledgerRow(gateway.origin, key, requestId);
      assert.deepEqual([row.status, row.completed, row.estimated], [499, false, false]);
      assert.equal(row.output_tokens, reported.output);
      // Anthropic bills thinking as output without saying how much of it there was.
      assert.equal(row.reasoning_tokens, upstream === 'claude' ? 0 : reported.reasoning);
      assertCostOfTokens(row);
      assert.equal(await probeStatus(key), 429, 'the day\'s spend counts the 30,000 tokens: no room for another capped request');
    });
  }

  test('a client that leaves before a whole (non-streamed) answer is charged what the upstream reports in it', async () => {
    const key = await limitedKey('not-streamed');
    const answer = { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'upstream-model', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 12, completion_tokens: reported.output, total_tokens: 12 + reported.output, completion_tokens_details: { reasoning_tokens: reported.reasoning } } };
    upstreams.get('chat')!.enqueue({ delayMs: 600, then: { json: answer } });
    const requestId = `req_left_${Date.now()}`;
    const controller = new AbortController();
    const started = fetch(`${gateway.origin}/v1/chat/completions`, { method: 'POST', headers: headersFor(key, requestId), body: JSON.stringify(clients.chat.body('up-chat', false)), signal: controller.signal });
    await sleep(200);
    controller.abort();
    await assert.rejects(started);
    const row = await ledgerRow(gateway.origin, key, requestId);
    assert.deepEqual([row.status, row.completed, row.estimated, row.output_tokens, row.reasoning_tokens], [499, false, false, reported.output, reported.reasoning]);
    assert.equal(await probeStatus(key), 429);
  });
});

describe('the drain is bounded: past it, the worst case is charged, marked estimated', () => {
  test('an upstream that never reports is cut at drain_seconds and charged the cap and the prompt estimate', async () => {
    const key = await limitedKey('never-reports');
    const upstream = upstreams.get('chat')!;
    upstream.enqueue(pausedStream('chat', { hold: true }));
    const requestId = await streamAndLeave(key, 'chat', 'up-chat');
    const leftAt = performance.now();
    const closedAt = await upstream.waitForClosure(drainSeconds * 1000 + 2_000);
    assert.ok(closedAt - leftAt > drainSeconds * 1000 - 300, `the upstream was read on until the bound (${Math.round(closedAt - leftAt)} ms)`);
    const row = await ledgerRow(gateway.origin, key, requestId);
    assert.deepEqual([row.status, row.completed, row.estimated, row.output_tokens], [499, false, true, cap]);
    assert.ok(row.input_tokens > 0, 'the prompt estimate');
    assertCostOfTokens(row);
  });

  test('an upstream that streams more than drain_bytes after the client left is cut there, and charged the worst case', async () => {
    const key = await limitedKey('too-many-bytes');
    const upstream = upstreams.get('claude')!;
    // About 330 KB of frames after the pause, beyond drain_bytes; their 90,000 characters are under the cap.
    const filler = sseText(Array.from({ length: 3_000 }, () => ({ event: 'content_block_delta', data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x'.repeat(30) } }) })));
    upstream.enqueue(pausedStream('claude', { hold: true, then: filler }));
    const requestId = await streamAndLeave(key, 'messages', 'up-claude');
    const leftAt = performance.now();
    const closedAt = await upstream.waitForClosure(drainSeconds * 1000);
    assert.ok(closedAt - leftAt < drainSeconds * 1000 - 500, `cut by its bytes, not its time (${Math.round(closedAt - leftAt)} ms)`);
    const row = await ledgerRow(gateway.origin, key, requestId);
    assert.deepEqual([row.status, row.completed, row.estimated, row.output_tokens], [499, false, true, cap]);
  });

  test('the concurrency slot stays taken while the upstream is read on', async () => {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'one-at-a-time', limits: { concurrent_requests: 1 } });
    const { key } = await admin.createKey(account.id, { name: 'one' });
    upstreams.get('chat')!.enqueue(pausedStream('chat', { hold: true }));
    await streamAndLeave(key, 'chat', 'up-chat');
    // Long enough for the gateway to see the client gone (and, before the drain, free the slot).
    await sleep(300);
    assert.equal(await probeStatus(key), 429, 'the abandoned request still occupies the upstream');
    await upstreams.get('chat')!.waitForClosure(drainSeconds * 1000 + 2_000);
    await sleep(200);
    assert.equal(await probeStatus(key), 200, 'and frees its slot once the drain is over');
  });
});

describe('property: whenever the client leaves and whatever the upstream reports, the charge covers it', () => {
  test('recorded output >= what the upstream reported, or = the worst case when it never reported', async () => {
    const upstream = upstreams.get('chat')!;
    const shortDrain = await startGateway({ config: gatewayConfig(0.4) });
    const content = (text: string) => ({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }) });
    const usage = (output: number) => ({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 7, completion_tokens: output, total_tokens: 7 + output } }) });
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 6 }).chain((chunks) => fc.record({ chunks: fc.constant(chunks), leaveAfter: fc.integer({ min: 1, max: chunks }), output: fc.option(fc.integer({ min: 0, max: cap }), { nil: undefined }) })),
          async ({ chunks, leaveAfter, output }) => {
            const events = Array.from({ length: chunks }, (_, index) => content(`word${index} `));
            const reply = output === undefined ? { sse: events, chunkDelayMs: 40, holdOpen: true } : { sse: [...events, usage(output), { data: '[DONE]' }], chunkDelayMs: 40 };
            upstream.enqueue(reply);
            const controller = new AbortController();
            const response = await fetch(`${shortDrain.origin}/v1/chat/completions`, { method: 'POST', headers: headersFor(shortDrain.apiKey), body: JSON.stringify(clients.chat.body('up-chat')), signal: controller.signal });
            const reader = response.body!.getReader();
            let text = '';
            while ((text.match(/"content":"word/g)?.length ?? 0) < leaveAfter) text += new TextDecoder().decode((await reader.read()).value);
            controller.abort();
            const row = await ledgerRow(shortDrain.origin, shortDrain.apiKey, response.headers.get('x-request-id')!);
            assert.deepEqual([row.status, row.completed], [499, false]);
            if (output === undefined) assert.deepEqual([row.output_tokens, row.estimated], [cap, true], 'never reported: the worst case');
            else assert.ok(row.output_tokens >= output, `${row.output_tokens} recorded, ${output} reported`);
          },
        ),
        { numRuns: 12 },
      );
    } finally {
      await shortDrain.close();
    }
  });
});

describe('SIGTERM during a drain', () => {
  test('does not hold the process past the drain timeout; the drain still running is charged its worst case, and no row is lost', async () => {
    const adminKey = 'admin-abandoned-streams';
    const upstream = upstreams.get('chat')!;
    const dir = await mkdtemp(join(tmpdir(), 'abandoned-streams-'));
    const config = [
      'providers:',
      `  - { id: up, type: openai, base_url: "${baseUrlFor('openai', upstream.origin)}", api_key: "${upstreamKey}" }`,
      'models:',
      `  - { id: up-chat, provider: up, upstream_model: upstream-model, pricing: ${JSON.stringify(prices)} }`,
      'ledger:',
      '  abandoned_streams: { drain_seconds: 120 }',
    ].join('\n');
    await writeFile(join(dir, 'gateway.yaml'), config);
    const drainTimeoutMs = 1_000;
    const spawned = await spawnGateway({ GATEWAY_CONFIG: join(dir, 'gateway.yaml'), GATEWAY_ADMIN_KEY: adminKey, GATEWAY_DRAIN_TIMEOUT_MS: String(drainTimeoutMs) });
    const created = await fetch(`${spawned.origin}/admin/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'sigterm' }) });
    const { key } = (await created.json()) as { key: string };
    // One upstream never ends; the other reports its usage within the drain timeout.
    upstream.enqueue(pausedStream('chat', { hold: true }), pausedStream('chat'));
    const leaveTwice = async () => [await streamAndLeave(key, 'chat', 'up-chat', spawned.origin), await streamAndLeave(key, 'chat', 'up-chat', spawned.origin)] as const;
    // A test that fails before the signal must not leave the process behind.
    const [cut, reporting] = await leaveTwice().catch((error: unknown) => {
      spawned.child.kill('SIGKILL');
      throw error;
    });
    const signalledAt = Date.now();
    spawned.child.kill('SIGTERM');
    assert.equal(await spawned.exited, 0, spawned.output());
    const took = Date.now() - signalledAt;
    assert.ok(took < drainTimeoutMs + 2_500, `exited ${took} ms after the signal, not after the 120 s drain`);
    const db = await openDatabase({ dataDir: spawned.dataDir });
    try {
      const rows = await db.selectFrom('usage_records').selectAll().execute();
      const rowOf = (requestId: string) => rows.find((row) => row.request_id === requestId);
      assert.deepEqual([rowOf(cut)?.status, Boolean(rowOf(cut)?.estimated), rowOf(cut)?.output_tokens], [499, true, cap], 'cut by the shutdown: the worst case');
      assert.deepEqual([rowOf(reporting)?.status, Boolean(rowOf(reporting)?.estimated), rowOf(reporting)?.output_tokens], [499, false, reported.output], 'ended within the drain timeout: what the upstream reported');
    } finally {
      await db.destroy();
    }
  });
});
