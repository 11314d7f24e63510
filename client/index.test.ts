// The client's wiring, against a fake fetch: URLs, headers, bodies, and errors turned into GatewayApiError.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createClient, GatewayApiError, unwrap } from './index.js';

const notFound = { error: { message: "The model 'nope' does not exist.", type: 'invalid_request_error', param: 'model', code: 'model_not_found' } };

/** A client whose fetch records each request and answers with `respond`. */
function fakeClient(respond: (request: Request) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const client = createClient({
    baseUrl: 'http://gateway.test/',
    apiKey: 'sk-gw-test',
    fetch: async (request) => {
      requests.push(request);
      return respond(request);
    },
  });
  return { client, requests };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('createClient', () => {
  test('sends the key as a bearer token to the spec path, percent-encoding a slash in a model ID', async () => {
    const { client, requests } = fakeClient(() => json({ id: 'builtin/echo', object: 'model', created: 1, owned_by: 'builtin', capabilities: [] }));
    const { data } = await client.GET('/v1/models/{model}', { params: { path: { model: 'builtin/echo' } } });
    assert.ok(data && 'id' in data && data.id === 'builtin/echo');
    assert.equal(requests[0].url, 'http://gateway.test/v1/models/builtin%2Fecho');
    assert.equal(requests[0].headers.get('authorization'), 'Bearer sk-gw-test');
  });

  test('unwrap returns data or throws the typed error', async () => {
    const { client } = fakeClient(() => json(notFound, 404));
    const result = await client.GET('/v1/models/{model}', { params: { path: { model: 'nope' } } });
    assert.throws(() => unwrap(result), (thrown) => thrown instanceof GatewayApiError && thrown.status === 404 && thrown.code === 'model_not_found');
  });
});

describe('streamChatCompletion', () => {
  const frames = [
    { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
    { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ];
  const sse = frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('') + 'data: [DONE]\n\n';

  test('asks for an event stream with stream: true and yields typed chunks', async () => {
    const { client, requests } = fakeClient(() => new Response(sse, { headers: { 'content-type': 'text/event-stream' } }));
    const chunks = [];
    for await (const chunk of client.streamChatCompletion({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })) chunks.push(chunk);
    assert.deepEqual(chunks, frames);
    assert.equal(requests[0].headers.get('accept'), 'text/event-stream');
    assert.equal(requests[0].headers.get('authorization'), 'Bearer sk-gw-test');
    assert.equal(((await requests[0].json()) as { stream: boolean }).stream, true);
  });

  test('sends nothing until iterated, then throws the typed error of a non-2xx answer', async () => {
    const { client, requests } = fakeClient(() => json(notFound, 404));
    const stream = client.streamChatCompletion({ model: 'nope', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(requests.length, 0);
    await assert.rejects(
      (async () => {
        for await (const chunk of stream) assert.fail(`unexpected chunk ${JSON.stringify(chunk)}`);
      })(),
      (thrown) => thrown instanceof GatewayApiError && thrown.status === 404 && thrown.param === 'model',
    );
  });
});

describe('editImage', () => {
  const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });

  test('posts multipart form data and resolves to the images', async () => {
    const images = { created: 1, data: [{ b64_json: 'AAAA' }] };
    const { client, requests } = fakeClient(() => json(images));
    assert.deepEqual(await client.editImage({ image: [png, png], prompt: 'Add a hat', n: 2 }), images);
    const request = requests[0];
    assert.equal(request.url, 'http://gateway.test/v1/images/edits');
    assert.match(request.headers.get('content-type') ?? '', /^multipart\/form-data; boundary=/);
    assert.equal(request.headers.get('authorization'), 'Bearer sk-gw-test');
    const form = await request.formData();
    assert.equal(form.getAll('image[]').length, 2);
    assert.equal(form.get('n'), '2');
  });

  test('throws the typed error of a non-2xx answer', async () => {
    const notImplemented = { error: { message: 'POST /v1/images/edits is not implemented.', type: 'not_implemented', param: null, code: 'not_implemented' } };
    const { client } = fakeClient(() => json(notImplemented, 501));
    await assert.rejects(client.editImage({ image: png, prompt: 'x' }), (thrown) => thrown instanceof GatewayApiError && thrown.status === 501 && thrown.code === 'not_implemented');
  });
});

describe('uploadFile', () => {
  test('posts the file as OpenAI SDKs do and resolves to the stored file', async () => {
    const stored = { id: 'file-1', object: 'file', bytes: 3, created_at: 1, filename: 'requests.jsonl', purpose: 'batch', status: 'processed' };
    const { client, requests } = fakeClient(() => json(stored));
    assert.deepEqual(await client.uploadFile({ file: new Blob(['{}\n']), filename: 'requests.jsonl', purpose: 'batch', expires_after: { anchor: 'created_at', seconds: 3600 } }), stored);
    const request = requests[0];
    assert.equal(request.url, 'http://gateway.test/v1/files');
    const form = await request.formData();
    assert.equal((form.get('file') as File).name, 'requests.jsonl');
    assert.equal(await (form.get('file') as File).text(), '{}\n');
    assert.equal(form.get('purpose'), 'batch');
    assert.equal(form.get('expires_after[seconds]'), '3600');
  });

  test('throws the typed error of a non-2xx answer', async () => {
    const bad = { error: { message: 'Invalid batch input file, line 2: it is not valid JSON.', type: 'invalid_request_error', param: 'file', code: 'invalid_batch_input' } };
    const { client } = fakeClient(() => json(bad, 400));
    await assert.rejects(client.uploadFile({ file: new Blob(['x']), purpose: 'batch' }), (thrown) => thrown instanceof GatewayApiError && thrown.status === 400 && thrown.code === 'invalid_batch_input');
  });
});
