// The fake upstream itself, driven with plain fetch: what it records, what bytes it sends, how it fails.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { after, before, beforeEach, test } from 'node:test';
import { startFakeUpstream, unusedPort, type FakeUpstream } from './fake-upstream.js';
import { fixtureChunks, fixturePath, fixtureSseEvents, toSseBody } from './upstream-fixtures.js';

let upstream: FakeUpstream;
before(async () => (upstream = await startFakeUpstream()));
after(() => upstream.close());
beforeEach(() => (upstream.requests.length = 0));

const post = (path: string, body: unknown, init: RequestInit = {}): Promise<Response> =>
  fetch(`${upstream.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Api-Key': 'sk-test' }, body: JSON.stringify(body), ...init });

test('JSON reply, and the request is recorded with lower-cased headers, path, query and body', async () => {
  upstream.enqueue({ status: 201, json: { ok: true }, headers: { 'x-request-id': 'req_1' } });
  const response = await post('/v1beta/models/gemini-2.5-flash:generateContent?alt=json', { model: 'm', n: 1 });
  assert.equal(response.status, 201);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.equal(response.headers.get('x-request-id'), 'req_1');
  assert.deepEqual(await response.json(), { ok: true });

  const [request] = upstream.requests;
  assert.equal(request.method, 'POST');
  assert.equal(request.url, '/v1beta/models/gemini-2.5-flash:generateContent?alt=json');
  assert.equal(request.headers['x-api-key'], 'sk-test');
  assert.equal(request.body, '{"model":"m","n":1}');
  assert.deepEqual(request.json, { model: 'm', n: 1 });
  assert.ok(request.receivedAt > 0 && request.receivedAt <= performance.now());
});

test('a .json fixture is served byte for byte; an error-*.json fixture needs its status', async () => {
  upstream.enqueue({ fixture: 'gemini/error-invalid-argument.json', protocol: 'gemini', status: 400 });
  const response = await post('/v1beta/models/x:generateContent', {});
  assert.equal(response.status, 400);
  assert.equal(await response.text(), readFileSync(fixturePath('gemini/error-invalid-argument.json'), 'utf8'));
  assert.throws(() => upstream.enqueue({ fixture: 'gemini/error-invalid-argument.json', protocol: 'gemini' }), /HTTP status/);
  assert.throws(() => upstream.enqueue({ fixture: 'gemini/no-such-file.json', protocol: 'gemini', status: 200 }), /no upstream fixture/);
});

test('Anthropic chunks replay: event lines, exactly the README recipe', async () => {
  upstream.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages', chunkDelayMs: 1 });
  const response = await post('/v1/messages', { stream: true });
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  const expected = fixtureChunks('anthropic-messages/stream-text.chunks.txt')
    .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`)
    .join('');
  const text = await response.text();
  assert.equal(text, expected);
  assert.ok(text.startsWith('event: message_start\ndata: {"type":"message_start"'));
  assert.ok(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n'));
});

test('OpenAI chat chunks replay: data lines ending with data: [DONE]', async () => {
  upstream.enqueue({ fixture: 'openai-chat/stream-tool-call-include-usage.chunks.txt', protocol: 'openai-chat' });
  const text = await (await post('/v1/chat/completions', { stream: true })).text();
  const expected = fixtureChunks('openai-chat/stream-tool-call-include-usage.chunks.txt').map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n';
  assert.equal(text, expected);
  assert.ok(text.endsWith('"usage":{"prompt_tokens":54,"completion_tokens":20,"total_tokens":74,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}\n\ndata: [DONE]\n\n'));
});

test('Gemini chunks replay with \\r\\n\\r\\n like the live API; the project fixtures are found too', async () => {
  const name = 'gemini/stream-two-function-calls.chunks.txt';
  upstream.enqueue({ fixture: name, protocol: 'gemini' });
  const text = await (await post('/v1beta/models/x:streamGenerateContent?alt=sse', {})).text();
  assert.equal(text, toSseBody(fixtureSseEvents(name, 'gemini')).replaceAll('\n', '\r\n'));
  assert.equal(text.split('\r\n\r\n').length, 3);
});

test('raw SSE string and hand-built events', async () => {
  upstream.enqueue({ sse: 'data: raw\n\n' }, { sse: [{ event: 'ping', data: '{}' }, { data: 'a\nb' }] });
  assert.equal(await (await post('/x', {})).text(), 'data: raw\n\n');
  assert.equal(await (await post('/x', {})).text(), 'event: ping\ndata: {}\n\ndata: a\ndata: b\n\n');
});

test('an empty queue answers 500 naming the request', async () => {
  const response = await post('/v1/responses', {});
  assert.equal(response.status, 500);
  assert.deepEqual(await response.json(), { error: { message: 'fake upstream: no reply queued for POST /v1/responses' } });
});

test('destroy resets the connection: fetch rejects, and it is not counted as a client closure', async () => {
  const closuresBefore = upstream.connectionClosures.length;
  upstream.enqueue({ destroy: true });
  await assert.rejects(post('/v1/messages', {}), TypeError);
  assert.equal(upstream.requests.length, 1, 'fetch did not retry');
  assert.equal(upstream.connectionClosures.length, closuresBefore);
});

test('holdOpen keeps the stream open until the client aborts; waitForClosure sees the abort promptly', async () => {
  upstream.enqueue({ sse: [{ data: 'first' }], holdOpen: true });
  const controller = new AbortController();
  const response = await post('/v1/chat/completions', {}, { signal: controller.signal });
  const reader = response.body!.getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), 'data: first\n\n');
  const abortedAt = performance.now();
  controller.abort();
  const closedAt = await upstream.waitForClosure(1000);
  assert.ok(closedAt - abortedAt < 100, `closure seen after ${closedAt - abortedAt} ms`);
  assert.equal(upstream.connectionClosures.at(-1), closedAt);
  await assert.rejects(upstream.waitForClosure(20), /no connection closed within 20 ms/);
});

test('delayMs holds the first byte back; an abort during the delay is a closure too', async () => {
  upstream.enqueue({ delayMs: 150, then: { json: { late: true } } });
  const started = performance.now();
  const response = await post('/v1/messages', {});
  assert.ok(performance.now() - started >= 140, 'waited for the delay');
  assert.deepEqual(await response.json(), { late: true });

  upstream.enqueue({ delayMs: 5000, then: { json: {} } });
  const closure = upstream.waitForClosure(1000);
  await assert.rejects(post('/v1/messages', {}, { signal: AbortSignal.timeout(50) }));
  assert.ok((await closure) > started);
});

test('unusedPort gives a port that refuses connections', async () => {
  const port = await unusedPort();
  await assert.rejects(fetch(`http://127.0.0.1:${port}/`), (error: Error) => (error.cause as { code?: string }).code === 'ECONNREFUSED');
});
