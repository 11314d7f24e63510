// Prometheus metrics (issue 27): after a mixed load, one scrape of GET /metrics agrees with the usage
// ledger request for request and token for token; it answers the admin key only, or with metrics.port on
// its own loopback server without a key (and not on the gateway's port); and it is a 404 when off. A
// Responses WebSocket counts each turn as a request and the socket as none.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { WebSocket } from 'ws';
import type { components } from '../generated/api.js';
import { freePort } from '../scripts/bench/free-port.js';
import { configSchema } from '../server/config/config-schema.js';
import { adminApi } from './helpers/admin-api.js';
import { startFakeUpstream } from './helpers/fake-upstream.js';
import { parsePrometheusText, sumOf, type Sample } from './helpers/prometheus-text.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

type UsageRecord = components['schemas']['UsageRecord'];

const configWith = (metrics: Record<string, unknown>) =>
  configSchema.parse({
    providers: [{ id: 'local', type: 'builtin', chunk_delay_ms: 0 }],
    models: [{ id: 'echo', provider: 'local', upstream_model: 'echo', capabilities: ['chat', 'streaming'], pricing: { input_per_mtok: 3, output_per_mtok: 15 } }],
    metrics,
  });

const scrape = (origin: string, secret?: string) => fetch(`${origin}/metrics`, { headers: secret ? { authorization: `Bearer ${secret}` } : {} });

async function samplesOf(origin: string, adminKey: string): Promise<{ text: string; samples: Sample[] }> {
  const response = await scrape(origin, adminKey);
  const text = await response.text();
  assert.equal(response.status, 200, text);
  assert.match(response.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
  return { text, samples: parsePrometheusText(text) };
}

/** Every ledger row, once there are `count` (rows are written in batches about once a second). */
async function ledgerRows(gateway: TestGateway, count: number): Promise<UsageRecord[]> {
  for (const deadline = Date.now() + 10_000; ; await sleep(100)) {
    const response = await fetch(`${gateway.origin}/admin/v1/usage/records?limit=1000`, { headers: { authorization: `Bearer ${gateway.adminKey}` } });
    const { data } = (await response.json()) as { data: UsageRecord[] };
    if (data.length >= count) return data;
    assert.ok(Date.now() < deadline, `${data.length} ledger rows, expected ${count}`);
  }
}

describe('GET /metrics on the gateway port', () => {
  let gateway: TestGateway;
  let limitedKey: string;
  before(async () => {
    gateway = await startGateway({ config: configWith({ enabled: true }) });
    const account = await adminApi(gateway).createAccount({ name: 'one a minute', limits: { requests_per_minute: 1 } });
    limitedKey = (await adminApi(gateway).createKey(account.id, { name: 'limited' })).key;
  });
  after(() => gateway.close());

  test('after mixed load, requests, tokens and cost equal the usage ledger', async () => {
    const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    const messages = [{ role: 'user' as const, content: 'count these five words please' }];
    await client.chat.completions.create({ model: 'echo', messages });
    const stream = await client.chat.completions.create({ model: 'echo', messages, stream: true, stream_options: { include_usage: true } });
    for await (const _chunk of stream);
    await assert.rejects(client.chat.completions.create({ model: 'made-up-model-name', messages }), { status: 404 });
    const limited = new OpenAI({ apiKey: limitedKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    await limited.chat.completions.create({ model: 'echo', messages });
    await assert.rejects(limited.chat.completions.create({ model: 'echo', messages }), { status: 429 });
    // Refused before the body is read: no ledger row, but a request.
    const anonymous = await fetch(`${gateway.origin}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'echo', messages }) });
    assert.equal(anonymous.status, 401);

    const rows = await ledgerRows(gateway, 5);
    assert.equal(rows.length, 5);
    const { text, samples } = await samplesOf(gateway.origin, gateway.adminKey);
    assert.doesNotMatch(text, /made-up-model-name/, 'a name no model has never becomes a label');

    const chat = { operation: 'createChatCompletion' };
    const ledgered = (labels: Record<string, string>) => labels.operation === 'createChatCompletion' && labels.status !== '401';
    assert.equal(sumOf(samples, 'gateway_requests_total', ledgered), rows.length);
    assert.equal(sumOf(samples, 'gateway_requests_total', { ...chat, status: '401', model: 'unknown' }), 1);
    for (const [model, status] of [['echo', '200'], ['unknown', '404'], ['echo', '429']] as const) {
      const inLedger = rows.filter((row) => (row.model === 'echo' ? 'echo' : 'unknown') === model && String(row.status) === status).length;
      assert.equal(sumOf(samples, 'gateway_requests_total', { ...chat, model, status }), inLedger, `${model} ${status}`);
    }
    assert.equal(sumOf(samples, 'gateway_requests_total', { ...chat, model: 'echo', status: '200', provider: 'local' }), 3);
    assert.equal(sumOf(samples, 'gateway_request_duration_seconds_count', chat), sumOf(samples, 'gateway_requests_total', chat));

    const total = (field: 'input_tokens' | 'cached_input_tokens' | 'output_tokens' | 'reasoning_tokens') => rows.reduce((sum, row) => sum + row[field], 0);
    assert.ok(total('input_tokens') > 0 && total('output_tokens') > 0);
    for (const type of ['input', 'cached_input', 'output', 'reasoning'] as const) {
      assert.equal(sumOf(samples, 'gateway_tokens_total', { type }), total(`${type}_tokens`), type);
    }
    const cost = rows.reduce((sum, row) => sum + row.cost_usd, 0);
    assert.ok(cost > 0);
    assert.ok(Math.abs(sumOf(samples, 'gateway_cost_usd_total', { model: 'echo', provider: 'local' }) - cost) < 1e-9);

    assert.equal(sumOf(samples, 'gateway_time_to_first_token_seconds_count', { ...chat, model: 'echo', provider: 'local' }), 1);
    assert.equal(sumOf(samples, 'gateway_open_streams'), 0);
    assert.equal(sumOf(samples, 'gateway_upstream_attempts_total', { provider: 'local', kind: 'first' }), 3);
    assert.equal(sumOf(samples, 'gateway_upstream_attempts_total', (labels) => labels.kind !== 'first'), 0);
    assert.equal(sumOf(samples, 'gateway_upstream_errors_total'), 0);
    assert.equal(sumOf(samples, 'gateway_limit_refusals_total', { limit: 'requests_per_minute', scope: 'account' }), 1);
    assert.equal(sumOf(samples, 'gateway_ledger_queued_rows'), 0);
    assert.equal(sumOf(samples, 'gateway_ledger_write_failures_total'), 0);
  });

  test('answers the admin key only: an account key and no key are 401', async () => {
    assert.equal((await scrape(gateway.origin, gateway.adminKey)).status, 200);
    for (const secret of [gateway.apiKey, undefined]) {
      const response = await scrape(gateway.origin, secret);
      assert.equal(response.status, 401);
      assert.match(((await response.json()) as { error: { message: string } }).error.message, /Admin key required/);
    }
  });
});

test('a retry and a fallback are counted as attempts, the failures as upstream errors', async () => {
  const upstream = await startFakeUpstream();
  const serverError = { status: 503, json: { error: { message: 'overloaded', type: 'server_error', param: null, code: null } } };
  upstream.enqueue(serverError, serverError);
  const config = configSchema.parse({
    providers: [
      { id: 'flaky', type: 'openai', base_url: `${upstream.origin}/v1`, api_key: upstreamKey },
      { id: 'local', type: 'builtin', chunk_delay_ms: 0 },
    ],
    models: [
      { id: 'primary', provider: 'flaky', upstream_model: 'm', fallbacks: ['echo'] },
      { id: 'echo', provider: 'local', upstream_model: 'echo', capabilities: ['chat', 'streaming'] },
    ],
    routing: { max_attempts: 2, backoff_ms: 1, max_backoff_ms: 1 },
    metrics: { enabled: true },
  });
  const gateway = await startGateway({ config });
  try {
    const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: 'primary', messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(upstream.requests.length, 2);
    const { samples } = await samplesOf(gateway.origin, gateway.adminKey);
    assert.equal(sumOf(samples, 'gateway_upstream_attempts_total', { provider: 'flaky', kind: 'first' }), 1);
    assert.equal(sumOf(samples, 'gateway_upstream_attempts_total', { provider: 'flaky', kind: 'retry' }), 1);
    assert.equal(sumOf(samples, 'gateway_upstream_attempts_total', { provider: 'local', kind: 'fallback' }), 1);
    assert.equal(sumOf(samples, 'gateway_upstream_errors_total', { provider: 'flaky', verdict: 'retry', status: '503' }), 2);
    assert.equal(sumOf(samples, 'gateway_upstream_errors_total'), 2);
    // The model that served names the request.
    assert.equal(sumOf(samples, 'gateway_requests_total', { operation: 'createChatCompletion', model: 'echo', provider: 'local', status: '200' }), 1);
  } finally {
    await gateway.close();
    await upstream.close();
  }
});

test('with metrics.port the metrics are on 127.0.0.1:<port> without a key, and not on the gateway port', async () => {
  const port = await freePort();
  const gateway = await startGateway({ config: configWith({ enabled: true, port }) });
  try {
    await fetch(`${gateway.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const own = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(own.status, 200);
    assert.equal(sumOf(parsePrometheusText(await own.text()), 'gateway_requests_total', { operation: 'createChatCompletion', status: '200' }), 1);
    assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
    assert.equal((await scrape(gateway.origin, gateway.adminKey)).status, 404);
  } finally {
    await gateway.close();
  }
  await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`), 'the metrics server closes with the gateway');
});

test('metrics off (the default): GET /metrics is a 404', async () => {
  const gateway = await startGateway({ config: configWith({}) });
  try {
    const response = await scrape(gateway.origin, gateway.adminKey);
    assert.equal(response.status, 404);
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /metrics\.enabled/);
  } finally {
    await gateway.close();
  }
});

test('a Responses WebSocket: each turn is one createResponse request as over HTTP, the socket itself none; open sockets are a gauge', async () => {
  const gateway = await startGateway({ config: configWith({ enabled: true }) });
  let ws: WebSocket | undefined;
  try {
    ws = new WebSocket(`${gateway.origin.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${gateway.apiKey}` } });
    await once(ws, 'open');
    const frames: Array<{ type: string }> = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data)) as { type: string }));
    const completed = async (count: number) => {
      while (frames.filter((frame) => frame.type === 'response.completed').length < count) await sleep(20);
    };
    ws.send(JSON.stringify({ type: 'response.create', model: 'echo', input: 'one' }));
    await completed(1);
    ws.send(JSON.stringify({ type: 'response.create', model: 'echo', input: 'two' }));
    await completed(2);
    await sleep(100); // a turn's request is counted when its response has closed
    const during = (await samplesOf(gateway.origin, gateway.adminKey)).samples;
    assert.equal(sumOf(during, 'gateway_open_websockets'), 1);
    await sleep(300); // the socket stays open a while longer than its turns took
    ws.close();
    await once(ws, 'close');
    await sleep(100);
    const { samples } = await samplesOf(gateway.origin, gateway.adminKey);
    const responses = { operation: 'createResponse' };
    assert.equal(sumOf(samples, 'gateway_requests_total', responses), 2, 'the two turns, and not the socket');
    assert.equal(sumOf(samples, 'gateway_requests_total', { ...responses, model: 'echo', provider: 'local', status: '200' }), 2);
    assert.equal(sumOf(samples, 'gateway_request_duration_seconds_count', responses), 2);
    assert.equal(sumOf(samples, 'gateway_open_websockets'), 0);
    // A refused handshake is an answered request like any 401.
    const refused = new WebSocket(`${gateway.origin.replace('http', 'ws')}/v1/responses`, { headers: { authorization: 'Bearer sk-gw-wrong' } });
    refused.on('error', () => undefined);
    await once(refused, 'unexpected-response');
    await sleep(100);
    const after = (await samplesOf(gateway.origin, gateway.adminKey)).samples;
    assert.equal(sumOf(after, 'gateway_requests_total', { ...responses, status: '401' }), 1);
  } finally {
    ws?.terminate(); // an open socket would hold the gateway's close
    await gateway.close();
  }
});
