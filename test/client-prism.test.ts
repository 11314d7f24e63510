// The typed client (client/) against `prism mock` of the contract, then against the real gateway.
// Prism checks that what the client sends is valid (with --errors an invalid request gets an error
// status, and any violation is listed in an `sl-violations` header); the gateway checks that the client
// reads real answers, streams and errors correctly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient, GatewayApiError, unwrap, type components, type GatewayClient } from '../client/index.js';
import { sniffImageFormat } from '../server/core/image-types.js';
import { makeImage } from './helpers/images.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { prismSpec, startPrism, type Prism } from './helpers/start-prism.js';

type ChatCompletionChunk = components['schemas']['ChatCompletionChunk'];

const root = new URL('..', import.meta.url).pathname;
const model = 'builtin/echo';
const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], { type: 'image/png' });

/** A client that also records the `sl-violations` header of every answer into `violations`. */
function recordingClient(baseUrl: string, apiKey: string, violations: string[]): GatewayClient {
  return createClient({
    baseUrl,
    apiKey,
    fetch: async (request) => {
      const response = await fetch(request);
      const header = response.headers.get('sl-violations');
      if (header) violations.push(`${request.method} ${new URL(request.url).pathname}: ${header}`);
      return response;
    },
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('typed client against prism mock', () => {
  let prism: Prism;
  let client: GatewayClient;
  let admin: GatewayClient;
  const violations: string[] = [];

  before(async () => {
    prism = await startPrism(['mock', prismSpec, '--errors']);
    client = recordingClient(prism.origin, 'sk-gw-prism', violations);
    admin = recordingClient(prism.origin, 'admin-prism', violations);
  });
  after(async () => {
    await prism?.stop();
  });

  test('lists and retrieves models (a slash ID goes percent-encoded)', async () => {
    // The spec allows the Anthropic and Gemini shapes too (for their SDKs); a bearer client gets OpenAI's.
    const list = unwrap(await client.GET('/v1/models'));
    assert.ok('object' in list && list.object === 'list');
    assert.ok(list.data.some((entry) => entry.id === model));
    const retrieved = unwrap(await client.GET('/v1/models/{model}', { params: { path: { model } } }));
    assert.ok('id' in retrieved && retrieved.id === model);
  });

  test('creates a chat completion', async () => {
    const completion = unwrap(
      await client.POST('/v1/chat/completions', { body: { model, messages: [{ role: 'user', content: 'Say hello to the gateway.' }] } }),
    );
    assert.equal(completion.object, 'chat.completion');
    assert.equal(typeof completion.choices[0].message.content, 'string');
  });

  test("streams the spec's example chat stream through the iterator", async () => {
    // Prism picks the text/event-stream example because the client sends `Accept: text/event-stream`.
    const chunks = await collect(
      client.streamChatCompletion({ model, messages: [{ role: 'user', content: 'Stream a short answer.' }], stream_options: { include_usage: true } }),
    );
    assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
    assert.ok(chunks.every((chunk) => chunk.object === 'chat.completion.chunk'));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    assert.ok(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'stop'));
    assert.ok(chunks.at(-1)?.usage?.total_tokens);
  });

  test('creates a key with the admin bearer', async () => {
    const { data, response } = await admin.POST('/admin/v1/keys', { body: { name: 'demo' } });
    assert.equal(response.status, 201);
    assert.ok(data?.key && data.id && data.object === 'api_key');
  });

  test('sends an image edit as valid multipart, one file or several', async () => {
    const single = await client.editImage({ image: png, mask: png, prompt: 'Add a red hat', n: 1, size: '1024x1024', response_format: 'b64_json' });
    assert.ok(single.data.length > 0);
    const several = await client.editImage({ image: [png, png], prompt: 'Combine them', model: 'builtin/image', output_compression: 80 });
    assert.ok(several.created > 0);
  });

  test('creates, lists, retrieves and cancels a batch', async () => {
    const created = unwrap(await client.POST('/v1/batches', { body: { input_file_id: 'file-abc', endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { job: 'eval' } } }));
    assert.equal(created.object, 'batch');
    assert.equal(unwrap(await client.GET('/v1/batches', { params: { query: { limit: 5 } } })).object, 'list');
    assert.equal(unwrap(await client.GET('/v1/batches/{batch_id}', { params: { path: { batch_id: created.id } } })).object, 'batch');
    assert.equal(unwrap(await client.POST('/v1/batches/{batch_id}/cancel', { params: { path: { batch_id: created.id } } })).object, 'batch');
  });

  test('Prism found no violation in any request the client sent', () => {
    assert.deepEqual(violations, []);
  });
});

describe('typed client against the real gateway', () => {
  let gateway: TestGateway;
  let client: GatewayClient;

  before(async () => {
    gateway = await startGateway();
    client = createClient({ baseUrl: gateway.origin, apiKey: gateway.apiKey });
  });
  after(() => gateway?.close());

  test('lists and retrieves models', async () => {
    const list = unwrap(await client.GET('/v1/models'));
    assert.ok('object' in list && list.data.some((entry) => entry.id === model && entry.capabilities.includes('streaming')));
    const retrieved = unwrap(await client.GET('/v1/models/{model}', { params: { path: { model } } }));
    assert.ok('id' in retrieved && retrieved.id === model);
  });

  test('creates a chat completion', async () => {
    const { data, response } = await client.POST('/v1/chat/completions', { body: { model, messages: [{ role: 'user', content: 'Hello gateway' }] } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('x-request-id') ?? '', /^req_/);
    assert.equal(data?.choices[0].message.content, 'You said: Hello gateway');
    assert.equal(data?.choices[0].finish_reason, 'stop');
  });

  test('streams typed chunks: role first, then content, the finish chunk and the usage chunk', async () => {
    const chunks: ChatCompletionChunk[] = await collect(
      client.streamChatCompletion({ model, messages: [{ role: 'user', content: 'Stream these words' }], stream_options: { include_usage: true } }),
    );
    assert.ok(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === chunks[0].id && chunk.model === model));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, 'You said: Stream these words');

    const usageChunk = chunks.at(-1);
    assert.deepEqual(usageChunk?.choices, []);
    assert.ok(usageChunk?.usage && usageChunk.usage.completion_tokens > 0);
    assert.equal(usageChunk.usage.total_tokens, usageChunk.usage.prompt_tokens + usageChunk.usage.completion_tokens);

    const finish = chunks.filter((chunk) => chunk.choices[0]?.finish_reason);
    assert.equal(finish.length, 1);
    assert.equal(finish[0].choices[0].finish_reason, 'stop');
    assert.equal(chunks.indexOf(finish[0]), chunks.length - 2, 'the finish chunk comes right before the usage chunk');
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.usage == null), 'only the last chunk carries usage');
  });

  test('streams without a usage chunk unless asked', async () => {
    const chunks = await collect(client.streamChatCompletion({ model, messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'stop');
    assert.ok(chunks.every((chunk) => chunk.usage == null));
  });

  test('a wrong key gives a typed 401', async () => {
    const wrong = createClient({ baseUrl: gateway.origin, apiKey: 'sk-gw-wrong' });
    const { error, response } = await wrong.GET('/v1/models');
    assert.equal(response.status, 401);
    // The models routes answer in the asking SDK's error shape; a bearer client gets OpenAI's.
    assert.ok(error && 'param' in error.error);
    assert.equal(error.error.type, 'authentication_error');
    assert.equal(error.error.code, 'invalid_api_key');

    const streamed = await collect(wrong.streamChatCompletion({ model, messages: [{ role: 'user', content: 'hi' }] })).catch((thrown: unknown) => thrown);
    assert.ok(streamed instanceof GatewayApiError);
    assert.equal(streamed.status, 401);
    assert.equal(streamed.code, 'invalid_api_key');
  });

  test('an unknown model gives a typed 404, plain and streamed', async () => {
    const { error, response } = await client.GET('/v1/models/{model}', { params: { path: { model: 'no/such-model' } } });
    assert.equal(response.status, 404);
    assert.ok(error && 'param' in error.error);
    assert.equal(error.error.code, 'model_not_found');

    const streamed = await collect(client.streamChatCompletion({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })).catch(
      (thrown: unknown) => thrown,
    );
    assert.ok(streamed instanceof GatewayApiError);
    assert.equal(streamed.status, 404);
    assert.equal(streamed.code, 'model_not_found');
    assert.equal(streamed.param, 'model');
    assert.match(streamed.requestId ?? '', /^req_/);
  });

  test('uploads batch input and runs a batch to completed; another endpoint in the file fails it', async () => {
    const line = (url: string) => JSON.stringify({ custom_id: url, method: 'POST', url, body: { model, messages: [{ role: 'user', content: 'Hi' }] } });
    const file = await client.uploadFile({ file: new Blob([`${line('/v1/chat/completions')}\n`]), filename: 'requests.jsonl', purpose: 'batch' });
    let batch = unwrap(await client.POST('/v1/batches', { body: { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' } }));
    for (let poll = 0; poll < 200 && batch.status !== 'completed'; poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      batch = unwrap(await client.GET('/v1/batches/{batch_id}', { params: { path: { batch_id: batch.id } } }));
    }
    assert.equal(batch.status, 'completed');
    assert.deepEqual(batch.request_counts, { total: 1, completed: 1, failed: 0 });
    assert.ok(batch.output_file_id);
    const other = await client.uploadFile({ file: new Blob([`${line('/v1/embeddings')}\n`]), filename: 'requests.jsonl', purpose: 'batch' });
    const failed = unwrap(await client.POST('/v1/batches', { body: { input_file_id: other.id, endpoint: '/v1/chat/completions', completion_window: '24h' } }));
    assert.equal(failed.status, 'failed');
    assert.equal(failed.errors?.data[0]?.code, 'url_mismatch');
  });

  test('edits an image, and a file that is not one gives the typed 400', async () => {
    const image = new Blob([new Uint8Array(await makeImage('png', 32, 32))], { type: 'image/png' });
    const edited = await client.editImage({ image, prompt: 'Make it sepia', n: 1, response_format: 'b64_json' });
    const bytes = Buffer.from(edited.data[0]?.b64_json ?? '', 'base64');
    assert.equal(sniffImageFormat(bytes), 'png');

    const caught = await client.editImage({ image: png, prompt: 'Add a red hat', n: 1 }).catch((thrown: unknown) => thrown);
    assert.ok(caught instanceof GatewayApiError, String(caught));
    assert.equal(caught.status, 400);
    assert.equal(caught.param, 'image', 'a PNG signature alone is not a PNG the model can read');
  });
});
