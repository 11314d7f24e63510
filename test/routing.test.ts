// Routing against fake upstreams: retries before the first byte, retry-after, connection refused,
// cool-down, fallbacks, first-byte timeouts, and a client disconnect reaching the upstream.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, afterEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { startFakeUpstream, unusedPort, type FakeUpstream } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

const chatReply = { fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' } as const;
const serverError = { status: 500, json: { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } } };
const hello = { model: 'smart', messages: [{ role: 'user' as const, content: 'Hello' }] };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fake(): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream();
  cleanups.push(() => upstream.close());
  return upstream;
}

/** A gateway whose model `smart` is served by the given deployments (`{origin, type, weight}`), with fast backoff. */
async function gatewayWith(options: {
  deployments: Array<{ origin: string; type?: 'openai' | 'anthropic'; weight?: number; timeouts?: Record<string, number> }>;
  fallback?: { origin: string; type?: 'openai' | 'anthropic' };
  routing?: Record<string, number>;
  ledger?: Record<string, unknown>;
}): Promise<{ gateway: TestGateway; openai: OpenAI }> {
  const all = [...options.deployments, ...(options.fallback ? [options.fallback] : [])];
  const providers = all.map((deployment, index) => ({
    id: `p${index}`,
    type: deployment.type ?? 'openai',
    base_url: deployment.type === 'anthropic' ? deployment.origin : `${deployment.origin}/v1`,
    api_key: upstreamKey,
    ...('timeouts' in deployment && deployment.timeouts ? { timeouts: deployment.timeouts } : {}),
  }));
  const config = configSchema.parse({
    providers,
    models: [
      {
        id: 'smart',
        deployments: options.deployments.map((deployment, index) => ({ provider: `p${index}`, upstream_model: `m${index}`, weight: deployment.weight ?? 1 })),
        fallbacks: options.fallback ? ['backup'] : [],
      },
      ...(options.fallback ? [{ id: 'backup', provider: `p${options.deployments.length}`, upstream_model: 'backup-upstream' }] : []),
    ],
    routing: { backoff_ms: 10, max_backoff_ms: 50, ...options.routing },
    ...(options.ledger && { ledger: options.ledger }),
  });
  const gateway = await startGateway({ config });
  cleanups.push(() => gateway.close());
  return { gateway, openai: new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 }) };
}

describe('retries before the first byte', () => {
  test('an upstream 500 is retried and the 200 that follows is the answer', async () => {
    const upstream = await fake();
    upstream.enqueue(serverError, chatReply);
    const { openai } = await gatewayWith({ deployments: [{ origin: upstream.origin }] });
    const completion = await openai.chat.completions.create(hello);
    assert.ok(completion.choices[0]!.message.content);
    assert.equal(upstream.requests.length, 2);
  });

  test("a 429's retry-after is waited for, then the call is retried", async () => {
    const upstream = await fake();
    upstream.enqueue({ status: 429, json: { error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, headers: { 'retry-after': '1' } }, chatReply);
    const { openai } = await gatewayWith({ deployments: [{ origin: upstream.origin }] });
    await openai.chat.completions.create(hello);
    assert.equal(upstream.requests.length, 2);
    const waited = upstream.requests[1]!.receivedAt - upstream.requests[0]!.receivedAt;
    assert.ok(waited >= 950, `waited ${waited} ms for retry-after: 1`);
  });

  test('a retry-after longer than max_retry_after_ms is not waited for: the client gets the 429 and its retry-after', async () => {
    const upstream = await fake();
    upstream.enqueue({ status: 429, json: { error: { message: 'Rate limit reached', type: 'requests', param: null, code: null } }, headers: { 'retry-after': '120' } });
    const { openai } = await gatewayWith({ deployments: [{ origin: upstream.origin }] });
    await assert.rejects(openai.chat.completions.create(hello), (error: InstanceType<typeof OpenAI.RateLimitError>) => {
      assert.equal(error.status, 429);
      assert.equal(error.headers.get('retry-after'), '120');
      return true;
    });
    assert.equal(upstream.requests.length, 1);
  });

  test('connection refused on the first deployment: the next deployment answers', async () => {
    const healthy = await fake();
    healthy.enqueue(chatReply);
    const refused = `http://127.0.0.1:${await unusedPort()}`;
    // The weights make the refused deployment the first choice with probability 1 - 1e-6.
    const { openai, gateway } = await gatewayWith({ deployments: [{ origin: refused, weight: 1_000_000 }, { origin: healthy.origin, weight: 1 }] });
    const { data, response } = await openai.chat.completions.create(hello).withResponse();
    assert.ok(data.choices[0]!.message.content);
    assert.equal(response.headers.get('x-gateway-provider'), 'p1');
    assert.equal(healthy.requests.length, 1);
    assert.ok(gateway.logs.some((line) => line.includes('upstream attempt failed') && line.includes('ECONNREFUSED')));
  });

  test('a 400 from the upstream is not retried', async () => {
    const upstream = await fake();
    upstream.enqueue({ status: 400, fixture: 'openai-chat/error-unsupported-parameter.json', protocol: 'openai-chat' });
    const { openai } = await gatewayWith({ deployments: [{ origin: upstream.origin }] });
    await assert.rejects(openai.chat.completions.create(hello), (error: InstanceType<typeof OpenAI.BadRequestError>) => {
      assert.equal(error.status, 400);
      assert.equal(error.param, 'max_tokens');
      return true;
    });
    assert.equal(upstream.requests.length, 1);
  });

  test('an upstream slower than first_byte_ms is abandoned and retried', async () => {
    const upstream = await fake();
    upstream.enqueue({ delayMs: 2_000, then: chatReply }, chatReply);
    const { openai } = await gatewayWith({ deployments: [{ origin: upstream.origin, timeouts: { first_byte_ms: 200 } }] });
    const started = performance.now();
    await openai.chat.completions.create(hello);
    assert.equal(upstream.requests.length, 2);
    assert.ok(performance.now() - started < 1_500, 'did not wait for the slow answer');
  });

  test('a failure after the first byte reached the client is not retried: the error arrives in-band', async () => {
    const upstream = await fake();
    const first = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m0","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}';
    upstream.enqueue({ sse: `data: ${first}\n\n` });
    const { openai } = await gatewayWith({ deployments: [{ origin: upstream.origin }] });
    const stream = await openai.chat.completions.create({ ...hello, stream: true });
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
    }, /ended before the answer was complete|upstream/i);
    assert.deepEqual(seen, ['Hel']);
    assert.equal(upstream.requests.length, 1);
  });
});

describe('cool-down and fallbacks', () => {
  test('a deployment that keeps failing is skipped for the cool-down', async () => {
    const failing = await fake();
    const healthy = await fake();
    failing.enqueue(serverError);
    healthy.enqueue(chatReply, chatReply);
    const { openai } = await gatewayWith({
      deployments: [{ origin: failing.origin, weight: 1_000_000 }, { origin: healthy.origin, weight: 1 }],
      routing: { failures_before_cooldown: 1, cooldown_ms: 60_000 },
    });
    await openai.chat.completions.create(hello);
    assert.equal(failing.requests.length, 1);
    await openai.chat.completions.create(hello);
    assert.equal(failing.requests.length, 1, 'the cooling deployment was not tried again');
    assert.equal(healthy.requests.length, 2);
  });

  test('when every deployment fails, the fallback model answers (translated to its own protocol)', async () => {
    const first = await fake();
    const second = await fake();
    const backup = await fake();
    first.enqueue(serverError, serverError, serverError);
    second.enqueue({ destroy: true }, { destroy: true }, { destroy: true });
    backup.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' });
    const { openai } = await gatewayWith({
      deployments: [{ origin: first.origin }, { origin: second.origin }],
      fallback: { origin: backup.origin, type: 'anthropic' },
    });
    const { data, response } = await openai.chat.completions.create(hello).withResponse();
    assert.match(data.choices[0]!.message.content ?? '', /^Hello! I'm doing well/);
    assert.equal(response.headers.get('x-gateway-model'), 'backup');
    assert.equal(first.requests.length + second.requests.length, 3, 'max_attempts (3) spent on the model before falling back');
    assert.equal((backup.requests[0]!.json as { model: string }).model, 'backup-upstream');
  });

  test('when the fallback fails too, the client gets the last upstream error', async () => {
    const only = await fake();
    const backup = await fake();
    only.enqueue(serverError, serverError, serverError);
    backup.enqueue(serverError, serverError, serverError);
    const { openai } = await gatewayWith({ deployments: [{ origin: only.origin }], fallback: { origin: backup.origin } });
    await assert.rejects(openai.chat.completions.create(hello), (error: InstanceType<typeof OpenAI.APIError>) => error.status === 502);
    assert.equal(only.requests.length, 3);
    assert.equal(backup.requests.length, 3);
  });
});

// By default the gateway reads an upstream on after its client left, until its usage arrives
// (test/abandoned-streams.test.ts); without that drain the client's leaving reaches the upstream at once.
describe('client disconnects, with no drain (drain_seconds: 0)', () => {
  const noDrain = { abandoned_streams: { drain_seconds: 0 } };
  for (const type of ['openai', 'anthropic'] as const) {
    test(`dropping a ${type === 'openai' ? 'passed-through' : 'translated'} stream closes the upstream connection within 100 ms`, async () => {
      const upstream = await fake();
      upstream.enqueue(
        type === 'openai'
          ? { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat', chunkDelayMs: 20, holdOpen: true }
          : { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages', chunkDelayMs: 20, holdOpen: true },
      );
      const { gateway } = await gatewayWith({ deployments: [{ origin: upstream.origin, type }], ledger: noDrain });
      const controller = new AbortController();
      const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...hello, stream: true }),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      const droppedAt = performance.now();
      controller.abort();
      const closedAt = await upstream.waitForClosure(1_000);
      assert.ok(closedAt - droppedAt < 100, `upstream closed ${Math.round(closedAt - droppedAt)} ms after the client left`);
    });
  }

  test('dropping a call that does not stream closes the upstream connection within 100 ms', async () => {
    const upstream = await fake();
    upstream.enqueue({ delayMs: 5_000, then: chatReply });
    const { gateway } = await gatewayWith({ deployments: [{ origin: upstream.origin }], ledger: noDrain });
    const controller = new AbortController();
    const answer = fetch(`${gateway.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(hello),
      signal: controller.signal,
    });
    while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const droppedAt = performance.now();
    controller.abort();
    await assert.rejects(answer);
    const closedAt = await upstream.waitForClosure(1_000);
    assert.ok(closedAt - droppedAt < 100, `upstream closed ${Math.round(closedAt - droppedAt)} ms after the client left`);
  });
});

after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('an error event as the first frame of a 200 stream is retried like an error status', async () => {
  const upstream = await startFakeUpstream();
  try {
    upstream.enqueue(
      { sse: [{ data: '{"error":{"message":"The server is overloaded","type":"server_error","param":null,"code":null}}' }] },
      { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' },
    );
    const { openai } = await gatewayWith({ deployments: [{ origin: upstream.origin }] });
    const completion = await openai.chat.completions.stream(hello).finalChatCompletion();
    assert.ok(completion.choices[0]!.message.content);
    assert.equal(upstream.requests.length, 2);
  } finally {
    await upstream.close();
  }
});

test("Anthropic's in-stream overloaded_error before any content is retried", async () => {
  const upstream = await startFakeUpstream();
  try {
    upstream.enqueue(
      { fixture: 'anthropic-messages/stream-overloaded-error.chunks.txt', protocol: 'anthropic-messages' },
      { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
    );
    const { openai } = await gatewayWith({ deployments: [{ origin: upstream.origin, type: 'anthropic' }] });
    const completion = await openai.chat.completions.stream(hello).finalChatCompletion();
    assert.match(completion.choices[0]!.message.content ?? '', /^Hello!/);
    assert.equal(upstream.requests.length, 2);
  } finally {
    await upstream.close();
  }
});

test('a stream that goes silent for longer than idle_ms ends with an in-band timeout error', async () => {
  const upstream = await startFakeUpstream();
  try {
    const first = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m0","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}';
    upstream.enqueue({ sse: [{ data: first }], holdOpen: true });
    const { openai } = await gatewayWith({ deployments: [{ origin: upstream.origin, timeouts: { idle_ms: 300 } }] });
    const stream = await openai.chat.completions.create({ ...hello, stream: true });
    const started = performance.now();
    await assert.rejects(async () => {
      for await (const _chunk of stream) {
        // drain
      }
    }, /did not answer in time: the stream went idle/);
    // undici checks its body timer about once a second, so the limit is met to within that.
    assert.ok(performance.now() - started < 3_000);
    assert.equal(upstream.requests.length, 1);
  } finally {
    await upstream.close();
  }
});
