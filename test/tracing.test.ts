// OpenTelemetry traces against a real OTLP/HTTP receiver: the span tree of a chat call (request span,
// attempt spans), retries, streams, an incoming traceparent continued and sent upstream, content capture
// on and off, SigV4 with the traceparent added, and nothing at all when tracing is off.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { configSchema, type ProviderType } from '../server/config/config-schema.js';
import { startFakeBedrock, textItems } from './helpers/fake-bedrock.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './helpers/otlp-receiver.js';
import { startGateway } from './helpers/start-gateway.js';
import { startUpstreamGateway, upstreamKey, upstreamModel, type UpstreamGateway } from './helpers/upstream-gateway.js';

const chatReply = { fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' } as const;
const serverError = { status: 500, json: { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } } };
/** A prompt no fixture or attribute name contains, to search the raw export for. */
const prompt = 'Describe the purple walrus of Quillsby-on-Tweed';
const hello = { model: 'test-model', messages: [{ role: 'user' as const, content: prompt }] };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(): Promise<OtlpReceiver> {
  const started = await startOtlpReceiver();
  cleanups.push(() => started.close());
  return started;
}

/** A gateway with model `test-model` on a fake upstream (OpenAI unless told), exporting to `otlp`. */
async function tracedGateway(otlp: OtlpReceiver, telemetry: Record<string, unknown> = {}, type: ProviderType = 'openai'): Promise<UpstreamGateway> {
  const started = await startUpstreamGateway(type, {
    config: { telemetry: { otlp_endpoint: otlp.origin, service_name: 'gateway-under-test', ...telemetry }, routing: { backoff_ms: 5, max_backoff_ms: 10 } },
  });
  cleanups.push(() => started.close());
  // Tests close the gateway early to have its spans sent; the cleanup's second close is then a no-op.
  const closeGateway = started.gateway.close.bind(started.gateway);
  let closing: Promise<void> | undefined;
  started.gateway.close = () => (closing ??= closeGateway());
  return started;
}

/** Closes the gateway, which sends every queued span, and returns the request span and its attempt spans. */
async function exportedTree(setup: UpstreamGateway, otlp: OtlpReceiver): Promise<{ request: ReceivedSpan; attempts: ReceivedSpan[] }> {
  await setup.gateway.close();
  const requests = otlp.spans.filter((span) => span.kind === 'server');
  assert.equal(requests.length, 1, `one request span, got ${otlp.spans.map((span) => `${span.kind} ${span.name}`).join('; ')}`);
  const request = requests[0]!;
  const attempts = otlp.spans.filter((span) => span.kind === 'client');
  for (const attempt of attempts) {
    assert.equal(attempt.traceId, request.traceId);
    assert.equal(attempt.parentSpanId, request.spanId);
  }
  return { request, attempts: attempts.sort((a, b) => Number(a.attributes['gateway.attempt']) - Number(b.attributes['gateway.attempt'])) };
}

/** What must never be exported: the prompt (unless captured), the gateway key the client used, the upstream key. */
function assertExportHolds(otlp: OtlpReceiver, secrets: string[], absent: string[] = []): void {
  const raw = otlp.rawBodies.join('\n');
  assert.ok(raw.length > 0, 'something was exported');
  for (const text of [...secrets, ...absent]) assert.ok(!raw.includes(text), `the export must not contain ${JSON.stringify(text)}`);
}

const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('traces over OTLP/HTTP', () => {
  test('a chat call is a request span with one attempt span, GenAI attributes, and the attempt in the upstream traceparent', async () => {
    const otlp = await receiver();
    const setup = await tracedGateway(otlp);
    setup.upstream.enqueue(chatReply);
    await setup.openai.chat.completions.create(hello);
    const { request, attempts } = await exportedTree(setup, otlp);

    assert.deepEqual(otlp.contentTypes, ['application/json']);
    assert.equal(request.serviceName, 'gateway-under-test');
    assert.equal(request.name, 'chat test-model');
    assert.equal(request.parentSpanId, '');
    assert.deepEqual(
      {
        op: request.attributes['gen_ai.operation.name'],
        requestModel: request.attributes['gen_ai.request.model'],
        responseModel: request.attributes['gen_ai.response.model'],
        provider: request.attributes['gen_ai.provider.name'],
        input: request.attributes['gen_ai.usage.input_tokens'],
        output: request.attributes['gen_ai.usage.output_tokens'],
        finish: request.attributes['gen_ai.response.finish_reasons'],
        status: request.attributes['http.response.status_code'],
        route: request.attributes['http.route'],
      },
      { op: 'chat', requestModel: 'test-model', responseModel: upstreamModel, provider: 'openai', input: 16, output: 363, finish: ['stop'], status: 200, route: '/v1/chat/completions' },
    );
    assert.equal(request.attributes['gen_ai.input.messages'], undefined);

    assert.equal(attempts.length, 1);
    const [attempt] = attempts as [ReceivedSpan];
    assert.equal(attempt.name, `chat ${upstreamModel}`);
    assert.equal(attempt.attributes['gen_ai.request.model'], upstreamModel);
    assert.equal(attempt.attributes['gen_ai.provider.name'], 'openai');
    assert.equal(attempt.attributes['gateway.attempt'], 1);
    assert.equal(attempt.attributes['server.address'], '127.0.0.1');
    assert.equal(attempt.attributes['server.port'], Number(new URL(setup.upstream.origin).port));
    assert.equal(attempt.attributes['http.response.status_code'], 200);
    assert.equal(attempt.attributes['gen_ai.usage.output_tokens'], 363);
    assert.equal(attempt.attributes['error.type'], undefined);
    assert.ok(attempt.endNs <= request.endNs, `attempt ended at ${attempt.endNs}, request at ${request.endNs}`);

    const sent = traceparentPattern.exec(setup.upstream.requests[0]!.headers.traceparent ?? '');
    assert.ok(sent, `the upstream got a traceparent: ${setup.upstream.requests[0]!.headers.traceparent}`);
    assert.deepEqual([sent[1], sent[2]], [request.traceId, attempt.spanId]);
    assertExportHolds(otlp, [setup.gateway.apiKey, upstreamKey], [prompt]);
  });

  test('a retried call has two attempt spans: the failed one with error.type, then the one that answered', async () => {
    const otlp = await receiver();
    const setup = await tracedGateway(otlp);
    setup.upstream.enqueue(serverError, chatReply);
    await setup.openai.chat.completions.create(hello);
    const { request, attempts } = await exportedTree(setup, otlp);

    assert.equal(attempts.length, 2);
    const [failed, answered] = attempts as [ReceivedSpan, ReceivedSpan];
    assert.deepEqual(
      [failed.attributes['gateway.attempt'], failed.attributes['error.type'], failed.attributes['http.response.status_code'], failed.statusCode],
      [1, '500', 500, 2],
    );
    assert.deepEqual([answered.attributes['gateway.attempt'], answered.attributes['error.type'], answered.statusCode], [2, undefined, 0]);
    assert.ok(failed.endNs <= answered.startNs, 'the retry starts after the failed attempt ended');
    assert.equal(request.attributes['http.response.status_code'], 200);
    // Each upstream request carried its own attempt's span.
    const sentSpans = setup.upstream.requests.map((recorded) => traceparentPattern.exec(recorded.headers.traceparent ?? '')?.[2]);
    assert.deepEqual(sentSpans, [failed.spanId, answered.spanId]);
  });

  test('a streamed call: the request span ends with the stream and carries its usage and finish reason', async () => {
    const otlp = await receiver();
    const setup = await tracedGateway(otlp);
    setup.upstream.enqueue({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat', chunkDelayMs: 1 });
    const stream = await setup.openai.chat.completions.create({ ...hello, stream: true, stream_options: { include_usage: true } });
    let chunks = 0;
    for await (const _chunk of stream) chunks += 1;
    const { request, attempts } = await exportedTree(setup, otlp);

    assert.ok(chunks > 250);
    // ~300 chunks a millisecond or more apart: a span that ended when the headers went would be far shorter.
    const durationMs = Number(request.endNs - request.startNs) / 1e6;
    assert.ok(durationMs >= 250, `request span lasted ${durationMs} ms`);
    assert.deepEqual(
      [request.attributes['gen_ai.usage.input_tokens'], request.attributes['gen_ai.usage.output_tokens'], request.attributes['gen_ai.response.finish_reasons']],
      [16, 300, ['stop']],
    );
    assert.equal(attempts.length, 1);
    assert.ok(Number(attempts[0]!.endNs - attempts[0]!.startNs) / 1e6 >= 250, 'the attempt span lasts as long as the upstream stream');
    assertExportHolds(otlp, [setup.gateway.apiKey, upstreamKey], [prompt]);
  });

  test("an incoming traceparent is continued: same trace, the caller's span as parent, and sent on upstream", async () => {
    const otlp = await receiver();
    const setup = await tracedGateway(otlp);
    setup.upstream.enqueue(chatReply);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    await setup.openai.chat.completions.create(hello, { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
    const { request, attempts } = await exportedTree(setup, otlp);

    assert.equal(request.traceId, traceId);
    assert.equal(request.parentSpanId, callerSpanId);
    assert.equal(setup.upstream.requests[0]!.headers.traceparent, `00-${traceId}-${attempts[0]!.spanId}-01`);
  });

  test('capture_content: prompt and completion are recorded, in the conventions\' message shape', async () => {
    const otlp = await receiver();
    const setup = await tracedGateway(otlp, { capture_content: true });
    setup.upstream.enqueue(chatReply);
    await setup.openai.chat.completions.create(hello);
    const { request } = await exportedTree(setup, otlp);

    assert.deepEqual(JSON.parse(String(request.attributes['gen_ai.input.messages'])), [{ role: 'user', parts: [{ type: 'text', content: prompt }] }]);
    const [output] = JSON.parse(String(request.attributes['gen_ai.output.messages'])) as Array<{ role: string; parts: Array<{ content: string }>; finish_reason: string }>;
    assert.equal(output!.role, 'assistant');
    assert.ok(output!.parts[0]!.content.startsWith('**Holiday Name:** Galaxy Day'));
    assert.equal(output!.finish_reason, 'stop');
    assertExportHolds(otlp, [setup.gateway.apiKey, upstreamKey]);
  });

  test('capture_content on a stream gathers the deltas into one output message', async () => {
    const otlp = await receiver();
    const setup = await tracedGateway(otlp, { capture_content: true });
    setup.upstream.enqueue({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' });
    const stream = await setup.openai.chat.completions.create({ ...hello, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    const { request } = await exportedTree(setup, otlp);

    const [output] = JSON.parse(String(request.attributes['gen_ai.output.messages'])) as Array<{ parts: Array<{ content: string }> }>;
    assert.equal(output!.parts[0]!.content, text.slice(0, output!.parts[0]!.content.length));
    assert.ok(output!.parts[0]!.content.length >= Math.min(text.length, 8_000));
  });

  test("Gemini's streamGenerateContent: generate_content on the path's model, Gemini's finish reason, and no query key exported", async () => {
    const otlp = await receiver();
    const setup = await tracedGateway(otlp, {}, 'gemini');
    setup.upstream.enqueue({ fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' });
    const response = await fetch(`${setup.gateway.origin}/v1beta/models/test-model:streamGenerateContent?alt=sse&key=${setup.gateway.apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt }] }] }),
    });
    assert.equal(response.status, 200);
    await response.text();
    const { request, attempts } = await exportedTree(setup, otlp);

    assert.equal(request.name, 'generate_content test-model');
    assert.deepEqual(request.attributes['gen_ai.response.finish_reasons'], ['STOP']);
    assert.equal(typeof request.attributes['gen_ai.usage.output_tokens'], 'number');
    assert.equal(attempts[0]!.attributes['gen_ai.provider.name'], 'gcp.gemini');
    assertExportHolds(otlp, [setup.gateway.apiKey, upstreamKey], [prompt]);
  });

  test('an Anthropic Messages stream: chat, with its stop reason', async () => {
    const otlp = await receiver();
    const setup = await tracedGateway(otlp, {}, 'anthropic');
    setup.upstream.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' });
    const response = await fetch(`${setup.gateway.origin}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': setup.gateway.apiKey, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'test-model', max_tokens: 200, stream: true, messages: [{ role: 'user', content: prompt }] }),
    });
    assert.equal(response.status, 200);
    await response.text();
    const { request, attempts } = await exportedTree(setup, otlp);

    assert.equal(request.name, 'chat test-model');
    assert.deepEqual(request.attributes['gen_ai.response.finish_reasons'], ['end_turn']);
    assert.equal(attempts[0]!.attributes['gen_ai.provider.name'], 'anthropic');
    assertExportHolds(otlp, [setup.gateway.apiKey, upstreamKey], [prompt]);
  });

  test('a Bedrock call stays correctly signed with the traceparent added, and no AWS secret is exported', async () => {
    const otlp = await receiver();
    const credentials = { region: 'eu-west-3', accessKeyId: 'AKIAFAKETRACING00001', secretAccessKey: 'tracing/secret+key/0123456789abcdefghij' };
    const bedrock = await startFakeBedrock({ ...credentials, answer: () => ({ items: textItems('Bonjour', { input: 7, output: 2 }) }) });
    cleanups.push(() => bedrock.close());
    const config = configSchema.parse({
      telemetry: { otlp_endpoint: otlp.origin },
      providers: [
        { id: 'aws', type: 'bedrock', base_url: bedrock.origin, region: credentials.region, aws_access_key_id: credentials.accessKeyId, aws_secret_access_key: credentials.secretAccessKey },
      ],
      models: [{ id: 'claude', provider: 'aws', upstream_model: 'anthropic.claude-test' }],
      routing: { max_attempts: 1 },
    });
    const gateway = await startGateway({ config });
    const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: 'claude', messages: [{ role: 'user', content: prompt }] });
    assert.equal(completion.choices[0]!.message.content, 'Bonjour');
    await gateway.close();

    const attempt = otlp.spans.find((span) => span.kind === 'client');
    assert.equal(attempt?.attributes['gen_ai.provider.name'], 'aws.bedrock');
    assert.equal(bedrock.calls.length, 1);
    const sent = traceparentPattern.exec(String(bedrock.calls[0]!.headers.traceparent));
    assert.equal(sent?.[2], attempt!.spanId);
    assertExportHolds(otlp, [gateway.apiKey, credentials.secretAccessKey], [prompt]);
  });

  test('the standard OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and OTEL_SERVICE_NAME turn traces on without a telemetry section', async () => {
    const otlp = await receiver();
    const saved = { endpoint: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, service: process.env.OTEL_SERVICE_NAME };
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${otlp.origin}/v1/traces`;
    process.env.OTEL_SERVICE_NAME = 'gateway-from-env';
    let setup: UpstreamGateway;
    try {
      setup = await startUpstreamGateway('openai');
    } finally {
      for (const [name, value] of [['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', saved.endpoint], ['OTEL_SERVICE_NAME', saved.service]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    cleanups.push(() => setup.upstream.close());
    setup.upstream.enqueue(chatReply);
    await setup.openai.chat.completions.create(hello);
    await setup.gateway.close();
    assert.deepEqual(
      otlp.spans.map((span) => [span.kind, span.serviceName]).sort(),
      [['client', 'gateway-from-env'], ['server', 'gateway-from-env']],
    );
  });

  test('without an endpoint nothing is traced: no traceparent goes upstream', async () => {
    const setup = await startUpstreamGateway('openai');
    cleanups.push(() => setup.close());
    setup.upstream.enqueue(chatReply);
    await setup.openai.chat.completions.create(hello, { headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } });
    assert.equal(setup.upstream.requests[0]!.headers.traceparent, undefined);
  });
});
