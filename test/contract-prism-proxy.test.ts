// Contract test: representative traffic through `prism proxy --errors` in front of the real gateway.
// Prism validates each request before forwarding it (an invalid one gets a 422 from Prism itself) and
// each answer against the spec; with --errors a response violation becomes a 500 problem+json, and any
// violation is listed in an `sl-violations` header. Every call here asserts neither happened.
//
// What Prism 5.14 cannot check, and how this file copes:
// - Prism answers an upstream 501 by mocking the operation instead (forwarder: UPSTREAM_NOT_IMPLEMENTED →
//   "Remocking the call"), so the gateway's 501 bodies would never be validated. A small shim between
//   Prism and the gateway turns 501 into 500 plus `x-gateway-status: 501`; Prism then validates the body
//   against the operation's `default` response, which has the same error schema as its 501 response.
// - A request without credentials never reaches the gateway (Prism answers 401 itself): 401s use a wrong key.
// - Prism cannot compile schemas whose nullable enums list `null` (it adds another) and then validates
//   nothing for them, silently: it loads generated/openapi.prism.json, which drops those items.
// - Streams are buffered by Prism and validated only as `type: string`; stream events are checked in
//   test/client-prism.test.ts instead.
// - Prism re-encodes multipart bodies as UTF-8 text, corrupting binary file bytes, so no multipart here.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { parseSse } from '../client/parse-sse.js';
import type { components } from '../generated/api.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { prismSpec, startPrism, type Prism } from './helpers/start-prism.js';

type Schemas = components['schemas'];

const root = new URL('..', import.meta.url).pathname;
const model = 'builtin/echo';

const hopByHop = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

function forwardable(headers: IncomingHttpHeaders | Headers): [string, string][] {
  const entries = headers instanceof Headers ? [...headersEntries(headers)] : Object.entries(headers);
  return entries.flatMap(([name, value]) => (hopByHop.has(name) || value === undefined ? [] : [[name, String(value)] as [string, string]]));
}

function headersEntries(headers: Headers): [string, string][] {
  const entries: [string, string][] = [];
  headers.forEach((value, name) => entries.push([name, value]));
  return entries;
}

/**
 * Forwards everything to `upstream`, but answers a 501 as 500 with `x-gateway-status: 501` (see the top
 * of the file). With `x-test-corrupt-response` it replaces the body, to prove that Prism reports violations.
 */
async function startStatusShim(upstream: string): Promise<{ origin: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await fetch(`${upstream}${req.url}`, {
      method: req.method,
      headers: forwardable(req.headers),
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    let body = Buffer.from(await answer.arrayBuffer());
    if (req.headers['x-test-corrupt-response']) body = Buffer.from('{"unexpected":true}');
    const headers = forwardable(answer.headers);
    if (answer.status === 501) headers.push(['x-gateway-status', '501']);
    res.writeHead(answer.status === 501 ? 500 : answer.status, headers);
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let gateway: TestGateway;
let shim: Server;
let prism: Prism;

before(async () => {
  gateway = await startGateway();
  const started = await startStatusShim(gateway.origin);
  shim = started.server;
  prism = await startPrism(['proxy', prismSpec, started.origin, '--errors']);
});
after(async () => {
  await prism?.stop();
  shim?.closeAllConnections();
  await new Promise((resolve) => shim?.close(resolve));
  await gateway?.close();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: <T = Record<string, unknown>>() => T;
}

type Auth = 'bearer' | 'admin' | 'x-api-key' | 'x-goog-api-key' | 'wrong' | 'none';

/** One call through Prism, with the credentials as each protocol's SDK sends them. */
async function send(method: string, path: string, options: { auth?: Auth; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const auth = options.auth ?? 'bearer';
  const headers: Record<string, string> = { ...options.headers };
  if (auth === 'bearer') headers.authorization = `Bearer ${gateway.apiKey}`;
  if (auth === 'admin') headers.authorization = `Bearer ${gateway.adminKey}`;
  if (auth === 'wrong') headers.authorization = 'Bearer sk-gw-wrong';
  if (auth === 'x-api-key') headers['x-api-key'] = gateway.apiKey;
  if (auth === 'x-goog-api-key') headers['x-goog-api-key'] = gateway.apiKey;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${prism.origin}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: <T>() => JSON.parse(text) as T };
}

/** The answer has the expected status, and Prism found nothing wrong with the exchange. */
function assertConforms(answer: Answer, status: number, label: string): void {
  const violations = answer.headers.get('sl-violations');
  assert.equal(violations, null, `${label}: Prism reported violations: ${violations}`);
  assert.doesNotMatch(answer.headers.get('content-type') ?? '', /problem\+json/, `${label}: Prism answered itself: ${answer.text}`);
  assert.equal(answer.status, status, `${label}: ${answer.text}`);
}

const hello: Schemas['ChatCompletionRequest'] = { model, messages: [{ role: 'user', content: 'Hello gateway' }] };
const weatherTool: Schemas['ChatTool'] = {
  type: 'function',
  function: { name: 'get_weather', description: 'Current weather for a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe('the checks are live', () => {
  test('Prism reports a response that breaks the contract, a shimmed 501 included', async () => {
    const corrupt = { 'x-test-corrupt-response': '1' };
    const answers = [
      await send('GET', '/v1/models', { headers: corrupt }),
      await send('GET', '/v1beta/models', { auth: 'x-goog-api-key', headers: corrupt }),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 500);
      assert.match(answer.headers.get('content-type') ?? '', /problem\+json/);
      assert.match(answer.headers.get('sl-violations') ?? '', /"response"/);
    }
  });

  test('Prism rejects a request that breaks the contract before it reaches the gateway', async () => {
    const answer = await send('POST', '/admin/v1/keys', { auth: 'admin', body: { label: 'no name' } });
    assert.equal(answer.status, 422);
    assert.match(answer.text, /required property 'name'/);
  });

  test('Prism validates chat request bodies (its spec copy has no duplicate null enum items)', async () => {
    const answer = await send('POST', '/v1/chat/completions', { body: { model, messages: [] } });
    assert.equal(answer.status, 422, 'Prism would reject an empty messages array itself');
  });
});

describe('operations and models', () => {
  test('health needs no key', async () => {
    const answer = await send('GET', '/healthz', { auth: 'none' });
    assertConforms(answer, 200, 'healthz');
    assert.deepEqual(answer.json(), { status: 'ok' });
  });

  test('lists models and retrieves one by a percent-encoded slash ID', async () => {
    assertConforms(await send('GET', '/v1/models'), 200, 'list models');
    const retrieved = await send('GET', `/v1/models/${encodeURIComponent(model)}`);
    assertConforms(retrieved, 200, 'retrieve model');
    assert.equal(retrieved.json<Schemas['Model']>().id, model);
  });

  test('an unknown model is a 404 and a wrong key a 401', async () => {
    assertConforms(await send('GET', '/v1/models/no-such-model'), 404, 'unknown model');
    assertConforms(await send('GET', '/v1/models', { auth: 'wrong' }), 401, 'wrong key');
  });
});

describe('chat completions', () => {
  test('a plain completion', async () => {
    const answer = await send('POST', '/v1/chat/completions', { body: hello });
    assertConforms(answer, 200, 'chat');
    assert.equal(answer.json<Schemas['ChatCompletion']>().choices[0].message.content, 'You said: Hello gateway');
  });

  test('a tool call', async () => {
    const body: Schemas['ChatCompletionRequest'] = { model, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [weatherTool] };
    const answer = await send('POST', '/v1/chat/completions', { body });
    assertConforms(answer, 200, 'chat with tools');
    const choice = answer.json<Schemas['ChatCompletion']>().choices[0];
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.tool_calls?.[0].function.name, 'get_weather');
  });

  test('errors: 400 for a tool_choice naming no offered tool, 401 for a wrong key, 404 for an unknown model', async () => {
    // A body the schema rejects would get Prism's own 422, so the 400 is one only the gateway can judge.
    const badChoice: Schemas['ChatCompletionRequest'] = { ...hello, tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'nope' } } };
    const bad = await send('POST', '/v1/chat/completions', { body: badChoice });
    assertConforms(bad, 400, 'chat 400');
    assert.equal(bad.json<Schemas['OpenAIError']>().error.param, 'tool_choice');
    assertConforms(await send('POST', '/v1/chat/completions', { body: hello, auth: 'wrong' }), 401, 'chat 401');
    const missing = await send('POST', '/v1/chat/completions', { body: { ...hello, model: 'no-such-model' } });
    assertConforms(missing, 404, 'chat 404');
    assert.equal(missing.json<Schemas['OpenAIError']>().error.code, 'model_not_found');
  });

  test('a stream passes through, buffered, ending with [DONE]', async () => {
    const answer = await send('POST', '/v1/chat/completions', {
      body: { ...hello, stream: true, stream_options: { include_usage: true } },
      headers: { accept: 'text/event-stream' },
    });
    assertConforms(answer, 200, 'chat stream');
    assert.match(answer.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(answer.text, /data: \[DONE\]\n\n$/);
    const chunks: Schemas['ChatCompletionChunk'][] = [];
    for await (const { data } of parseSse<Schemas['ChatCompletionChunk']>(new Response(answer.text).body!)) chunks.push(data);
    assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'You said: Hello gateway');
  });
});

describe('admin keys', () => {
  test('create, list and revoke a key; unknown IDs and non-admin keys are refused', async () => {
    const created = await send('POST', '/admin/v1/keys', { auth: 'admin', body: { name: 'contract' } });
    assertConforms(created, 201, 'create key');
    const key = created.json<Schemas['CreatedKey']>();

    const list = await send('GET', '/admin/v1/keys', { auth: 'admin' });
    assertConforms(list, 200, 'list keys');
    assert.ok(list.json<Schemas['KeyList']>().data.some((entry) => entry.id === key.id));

    const revoked = await send('DELETE', `/admin/v1/keys/${key.id}`, { auth: 'admin' });
    assertConforms(revoked, 200, 'revoke key');
    assert.equal(typeof revoked.json<Schemas['Key']>().revoked_at, 'number');

    assertConforms(await send('DELETE', '/admin/v1/keys/key_0000000000000000', { auth: 'admin' }), 404, 'revoke unknown key');
    assertConforms(await send('GET', '/admin/v1/keys', { auth: 'bearer' }), 401, 'list keys with an API key');
  });
});

describe('Responses', () => {
  test('create, retrieve and an unknown ID conform to the contract', async () => {
    const created = await send('POST', '/v1/responses', { body: { model, input: 'Hello' } });
    assertConforms(created, 200, 'create response');
    const { id } = created.json<Schemas['ResponsesResponse']>();
    assertConforms(await send('GET', `/v1/responses/${id}`), 200, 'retrieve response');
    assertConforms(await send('GET', `/v1/responses/${id}/input_items`), 200, 'list input items');
    assertConforms(await send('GET', '/v1/responses/resp_0a1b2c3d4e5f60718293a4b5c6d7e8f9'), 404, 'unknown response');
  });
});

describe('OpenAI Images', () => {
  test('generation as b64_json and as url, the file download and a refused size conform to the contract', async () => {
    const base64 = await send('POST', '/v1/images/generations', { body: { model: 'builtin/image', prompt: 'A cat', size: '256x256', response_format: 'b64_json' } });
    assertConforms(base64, 200, 'generate b64_json');
    assert.ok(base64.json<Schemas['ImagesResponse']>().data[0]?.b64_json);
    const linked = await send('POST', '/v1/images/generations', { body: { model: 'builtin/image', prompt: 'A cat', size: '256x256', response_format: 'url' } });
    assertConforms(linked, 200, 'generate url');
    const file = new URL(linked.json<Schemas['ImagesResponse']>().data[0]!.url!).pathname;
    const download = await fetch(`${prism.origin}${file}`);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('sl-violations'), null);
    assert.equal(download.headers.get('content-type'), 'image/png');
    assertConforms(await send('GET', '/v1/images/files/img_abc.png', { auth: 'none' }), 404, 'unknown image file');
    assertConforms(await send('POST', '/v1/images/generations', { body: { model: 'builtin/image', prompt: 'A cat', size: '999x999' } }), 400, 'unsupported size');
  });
});

describe('Anthropic Messages', () => {
  const message: Schemas['AnthropicCreateMessageRequest'] = { model, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] };
  const version = { 'anthropic-version': '2023-06-01' };

  test('create, count_tokens and the errors conform to the contract', async () => {
    const created = await send('POST', '/v1/messages', { auth: 'x-api-key', body: message, headers: version });
    assertConforms(created, 200, 'create message');
    assert.equal(created.json<Schemas['AnthropicMessage']>().content[0]?.type, 'text');
    const tools: Schemas['AnthropicToolUnion'][] = [{ name: 'lookup', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
    assertConforms(await send('POST', '/v1/messages', { auth: 'bearer', body: { ...message, tools }, headers: version }), 200, 'create message with a tool call');
    const counted = await send('POST', '/v1/messages/count_tokens', { auth: 'x-api-key', body: { model, messages: message.messages } });
    assertConforms(counted, 200, 'count tokens');
    assert.ok(counted.json<Schemas['AnthropicCountTokensResponse']>().input_tokens > 0);
    assertConforms(await send('POST', '/v1/messages', { auth: 'x-api-key', body: { ...message, model: 'no-such-model' }, headers: version }), 404, 'unknown model');
    assertConforms(await send('POST', '/v1/messages', { auth: 'wrong', body: message, headers: version }), 401, 'wrong key');
  });
});

describe('Gemini generateContent', () => {
  const request: Schemas['GeminiGenerateContentRequest'] = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };
  const id = encodeURIComponent(model);

  test('generate, count, list and get conform, on both API versions, the slash ID encoded or not', async () => {
    const generated = await send('POST', `/v1beta/models/${id}:generateContent`, { auth: 'x-goog-api-key', body: request });
    assertConforms(generated, 200, 'generateContent');
    assert.equal(generated.json<Schemas['GeminiGenerateContentResponse']>().candidates?.[0]?.content?.parts?.[0]?.text, 'You said: Hello');
    assertConforms(await send('POST', `/v1/models/${id}:generateContent`, { auth: 'x-goog-api-key', body: request }), 200, 'generateContent v1');
    const counted = await send('POST', `/v1beta/models/${id}:countTokens`, { auth: 'x-goog-api-key', body: { contents: request.contents } });
    assertConforms(counted, 200, 'countTokens');
    assert.ok(counted.json<Schemas['GeminiCountTokensResponse']>().totalTokens > 0);
    assertConforms(await send('POST', `/v1/models/${id}:countTokens`, { auth: 'x-goog-api-key', body: { generateContentRequest: request } }), 200, 'countTokens v1');
    const listed = await send('GET', '/v1beta/models?pageSize=10', { auth: 'x-goog-api-key' });
    assertConforms(listed, 200, 'list models');
    assert.equal(listed.json<Schemas['GeminiModelList']>().models[0]?.name, `models/${model}`);
    assertConforms(await send('GET', `/v1beta/models/${id}`, { auth: 'x-goog-api-key' }), 200, 'get model');
  });

  test('the JSON array stream conforms (Prism buffers it whole)', async () => {
    const answer = await send('POST', `/v1beta/models/${id}:streamGenerateContent`, { auth: 'x-goog-api-key', body: request });
    assertConforms(answer, 200, 'streamGenerateContent without alt');
    const chunks = answer.json<Schemas['GeminiGenerateContentResponse'][]>();
    assert.equal(chunks.map((chunk) => chunk.candidates?.[0]?.content?.parts?.[0]?.text ?? '').join(''), 'You said: Hello');
  });

  test('errors: 404 for an unknown model, 401 for a wrong key, 400 for a bad page token', async () => {
    const missing = await send('POST', '/v1beta/models/no-such-model:generateContent', { auth: 'x-goog-api-key', body: request });
    assertConforms(missing, 404, 'unknown model');
    assert.equal(missing.json<Schemas['GeminiError']>().error.status, 'NOT_FOUND');
    assertConforms(await send('GET', `/v1beta/models/${id}`, { auth: 'wrong' }), 401, 'wrong key');
    assertConforms(await send('GET', '/v1beta/models?pageToken=bm9wZQ', { auth: 'x-goog-api-key' }), 400, 'bad page token');
  });
});
