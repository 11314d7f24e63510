// Every upstream fault on every client protocol, streaming and not: the client gets a well-formed error in
// its own protocol (a status and error body before the stream started, the protocol's in-stream error event
// and a clean end after), retries happen only while nothing has reached the client, every request ends
// within the configured time limits, the gateway stays up, nothing is left as an unhandled rejection, and
// sockets and file descriptors go back to their idle count.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { Agent, request } from 'undici';
import { configSchema, type ProviderType } from '../server/config/config-schema.js';
import { startFakeUpstream, unusedPort, type FakeReply, type FakeUpstream } from './helpers/fake-upstream.js';
import { clientCalls, type ClientCall, type ClientProtocol } from './helpers/fault-matrix/client-calls.js';
import { asksForStream, faultsFor, goodAnswer } from './helpers/fault-matrix/faults.js';
import { assertErrorBody, assertStreamEndsWithError } from './helpers/fault-matrix/protocol-errors.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { baseUrlFor, upstreamKey } from './helpers/upstream-gateway.js';

/** Short limits so that the faults that wait for a timer end quickly; the bounds below follow from them. */
const timeouts = { connect_ms: 500, first_byte_ms: 400, idle_ms: 400 };
const routing = { max_attempts: 2, backoff_ms: 10, max_backoff_ms: 20, max_retry_after_ms: 500, cooldown_ms: 0 };
/**
 * The longest any request may take: every attempt waiting out its first-byte and idle limits, plus
 * undici's timer resolution (it checks its header and body timers about once a second) per attempt.
 */
const requestBoundMs = routing.max_attempts * (timeouts.first_byte_ms + timeouts.idle_ms + 1_000) + 1_000;

const upstreamTypes: ProviderType[] = ['openai', 'anthropic', 'gemini'];
const protocols: ClientProtocol[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];

/** Each upstream type × client protocol × streaming runs its faults in turn, against an upstream of its own. */
interface Mode {
  type: ProviderType;
  call: ClientCall;
  model: string;
}
const modes: Mode[] = upstreamTypes.flatMap((type) =>
  protocols.flatMap((protocol) =>
    [false, true].map((stream) => {
      const model = `${type}-for-${protocol}${stream ? '-stream' : ''}`;
      return { type, model, call: clientCalls[protocol](model, stream) };
    }),
  ),
);

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

let gateway: TestGateway;
const upstreams = new Map<string, FakeUpstream>();
/** The test's own connection pool, so that its keep-alive sockets can be closed before counting. */
let client = new Agent();
let idleDescriptors = 0;

function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

/** Descriptors open with the client's keep-alive sockets closed. */
async function settledDescriptorCount(): Promise<number> {
  await client.close();
  client = new Agent();
  await sleep(200);
  return openDescriptors();
}

/** One call with `attempts` copies of the reply queued; resolves with what the upstream saw and the time taken. */
async function run(call: ClientCall, reply: FakeReply | undefined, upstream: FakeUpstream | undefined) {
  const seenBefore = upstream?.requests.length ?? 0;
  if (upstream && reply) upstream.enqueue(...Array.from({ length: routing.max_attempts }, () => reply));
  const started = performance.now();
  const response = await request(`${gateway.origin}${call.path}`, {
    method: 'POST',
    headers: { ...call.headers(gateway.apiKey), 'content-type': 'application/json' },
    body: JSON.stringify(call.body),
    dispatcher: client,
    signal: AbortSignal.timeout(requestBoundMs + 5_000),
  });
  const text = await response.body.text();
  const elapsedMs = performance.now() - started;
  const attempts = (upstream?.requests.length ?? 0) - seenBefore;
  upstream?.discardQueued();
  return { status: response.statusCode, headers: response.headers, text, elapsedMs, attempts };
}

before(async () => {
  process.on('unhandledRejection', onUnhandled);
  for (const mode of modes) upstreams.set(mode.model, await startFakeUpstream());
  const refusedOrigin = `http://127.0.0.1:${await unusedPort()}`;
  const providers = [
    ...modes.map(({ type, model }) => ({ id: model, type, base_url: baseUrlFor(type, upstreams.get(model)!.origin), api_key: upstreamKey, timeouts })),
    { id: 'refused', type: 'openai', base_url: `${refusedOrigin}/v1`, api_key: upstreamKey, timeouts },
  ];
  const models = [...modes.map(({ model }) => model), 'refused'].map((id) => ({ id, provider: id, upstream_model: 'upstream-model' }));
  gateway = await startGateway({ config: configSchema.parse({ providers, models, routing }) });
  await answerWell();
  // Idle: every upstream pool holding the one kept-alive connection its last good answer left, and the
  // usage ledger's writer thread started (by the first flush, after a second).
  await sleep(1_500);
  idleDescriptors = await settledDescriptorCount();
});

/** One good answer per mode: every mode works when its upstream does, so the faults are the only cause of errors. */
async function answerWell(): Promise<void> {
  for (const mode of modes) {
    const result = await run(mode.call, goodAnswer(mode.type), upstreams.get(mode.model));
    assert.equal(result.status, 200, `good answer ${mode.model}: ${result.text.slice(0, 300)}`);
  }
}

after(async () => {
  process.off('unhandledRejection', onUnhandled);
  await client.close();
  await gateway.close();
  for (const upstream of upstreams.values()) await upstream.close();
});

describe('upstream faults, each client protocol and upstream type at once', { concurrency: true }, () => {
  for (const mode of modes) {
    test(`${mode.call.protocol}${mode.call.stream ? ', streaming' : ''}, from an ${mode.type} upstream`, async (t) => {
      for (const fault of faultsFor(mode.type)) {
        await t.test(fault.name, async () => {
          const upstream = upstreams.get(mode.model)!;
          const result = await run(mode.call, fault.reply, upstream);
          const expected = fault.expect(mode.call.stream && asksForStream(upstream.requests.at(-1)!));
          const context = `${mode.model}, ${fault.name} → ${result.status} ${result.text.slice(0, 400)}`;
          assert.ok(result.elapsedMs < requestBoundMs, `${context}: took ${Math.round(result.elapsedMs)} ms`);
          assert.equal(result.attempts, expected.attempts, `${context}: upstream calls`);
          if (expected.inStream) {
            assert.equal(result.status, 200, context);
            assertStreamEndsWithError(mode.call.protocol, result.text, context);
            return;
          }
          assert.equal(result.status, clientStatus(mode.call.protocol, expected.status!), context);
          assertErrorBody(mode.call.protocol, result.status, result.headers, result.text, context);
          if (expected.retryAfter) assert.equal(result.headers['retry-after'], expected.retryAfter, context);
        });
      }
    });
  }
});

/** Anthropic's API says "overloaded" with its own 529 where the others use 503. */
function clientStatus(protocol: ClientProtocol, status: number): number {
  return protocol === 'anthropic-messages' && status === 503 ? 529 : status;
}

describe('a provider that refuses connections', { concurrency: true }, () => {
  for (const protocol of protocols) {
    for (const stream of [false, true]) {
      test(`${protocol}${stream ? ', streaming' : ''}: 502 in the protocol's shape`, async () => {
        const result = await run(clientCalls[protocol]('refused', stream), undefined, undefined);
        assert.ok(result.elapsedMs < requestBoundMs, `took ${Math.round(result.elapsedMs)} ms`);
        assert.equal(result.status, 502, result.text);
        assertErrorBody(protocol, result.status, result.headers, result.text, 'connection refused');
      });
    }
  }
});

test('after every fault the gateway still answers, nothing was left unhandled, and descriptors are back to idle', async () => {
  const health = await request(`${gateway.origin}/healthz`, { dispatcher: client });
  assert.equal(health.statusCode, 200);
  await health.body.dump();
  assert.deepEqual(unhandled, []);
  assert.ok(!gateway.logs.some((line) => /unhandled|uncaught/i.test(line)), 'no unhandled rejection or exception was logged');
  // The fakes hold some replies open on purpose (silence, a garbled stream left open): the gateway must
  // close each of those connections itself. Good answers again leave each pool as it was when idle.
  await answerWell();
  let now = await settledDescriptorCount();
  for (let waited = 0; now > idleDescriptors && waited < 5_000; waited += 250) {
    await sleep(250);
    now = openDescriptors();
  }
  assert.ok(now <= idleDescriptors, `${now} descriptors open, ${idleDescriptors} when idle before the faults`);
});
