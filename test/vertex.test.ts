// Vertex AI end to end: a real gateway with Gemini-on-Vertex and Claude-on-Vertex providers, pointed at the
// strict fake (test/helpers/fake-vertex.ts), which runs the service account's token endpoint too. Driven
// by the real SDKs: @google/genai and @anthropic-ai/sdk (passed through) and openai (translated).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { holdsSecret } from './helpers/exposure.js';
import { startFakeVertex, type FakeVertex } from './helpers/fake-vertex.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixtureChunks, fixtureJson } from './helpers/upstream-fixtures.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const project = 'acme-ai';
const location = 'europe-west4';
const modelPath = (publisher: string, model: string, method: string) =>
  `/v1/projects/${project}/locations/${location}/publishers/${publisher}/models/${model}:${method}`;

let vertex: FakeVertex;
let gateway: TestGateway;
let dir: string;
let foreignKeyFile: string;
let openai: OpenAI;

const geminiStreamText = fixtureChunks('gemini/stream-text.chunks.txt')
  .map((line) => (JSON.parse(line) as Body).candidates[0].content.parts.map((part: Body) => part.text ?? '').join(''))
  .join('');

before(async () => {
  vertex = await startFakeVertex({ project, location });
  dir = await mkdtemp(join(tmpdir(), 'vertex-test-'));
  const keyFile = await vertex.writeKeyFile(dir);
  const common = { type: 'vertex', base_url: vertex.origin, location };
  const config = configSchema.parse({
    providers: [
      // The project comes from the key file here, and is stated for Claude.
      { id: 'vertex-gemini', ...common, credentials_file: keyFile },
      { id: 'vertex-claude', ...common, credentials_file: keyFile, project, publisher: 'anthropic' },
      { id: 'vertex-short', ...common, credentials_file: await vertex.writeKeyFile(dir) },
      { id: 'vertex-foreign', ...common, credentials_file: (foreignKeyFile = await vertex.writeKeyFile(dir, { foreignKey: true })) },
    ],
    models: [
      { id: 'gemini-on-vertex', provider: 'vertex-gemini', upstream_model: 'gemini-2.5-flash' },
      { id: 'claude-on-vertex', provider: 'vertex-claude', upstream_model: 'claude-haiku-4-5@20251001' },
      { id: 'short-lived', provider: 'vertex-short', upstream_model: 'gemini-2.5-flash' },
      { id: 'foreign-key', provider: 'vertex-foreign', upstream_model: 'gemini-2.5-flash' },
    ],
    routing: { max_attempts: 1, backoff_ms: 0, max_backoff_ms: 0, failures_before_cooldown: 100 },
  });
  // The after-suite scan then proves no key line and no access token reaches a client or a log.
  for (const file of [keyFile, foreignKeyFile]) holdsSecret(...((JSON.parse(await readFile(file, 'utf8')) as Body).private_key as string).split('\n').filter((line) => /^[A-Za-z0-9+/=]{64}$/.test(line)));
  gateway = await startGateway({ config });
  openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
});
after(async () => {
  holdsSecret(...vertex.grantedTokens);
  await gateway.close();
  await vertex.close();
  await rm(dir, { recursive: true, force: true });
});

const lastCall = () => vertex.upstream.requests.at(-1)!;

describe('service-account access tokens', () => {
  test('many calls, six of them at once, share one token from one token request', async () => {
    const before = vertex.tokenRequests;
    for (let i = 0; i < 8; i += 1) vertex.upstream.enqueue({ fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' });
    const ask = () => openai.chat.completions.create({ model: 'gemini-on-vertex', messages: [{ role: 'user', content: 'Hi' }] });
    const answers = await Promise.all(Array.from({ length: 6 }, ask));
    answers.push(await ask(), await ask());
    for (const answer of answers) assert.equal(answer.choices[0]!.message.content, geminiStreamText);
    assert.equal(vertex.tokenRequests - before, 1);
    const token = vertex.grantedTokens.at(-1)!;
    const calls = vertex.upstream.requests.slice(-8);
    assert.ok(calls.every((call) => call.headers.authorization === `Bearer ${token}`));
    assert.ok(calls.every((call) => call.url === `${modelPath('google', 'gemini-2.5-flash', 'streamGenerateContent')}?alt=sse`));
    assert.ok(calls.every((call) => call.headers['x-goog-api-key'] === undefined));
  });

  test('a token near its expiry is refreshed before the next call', async () => {
    // The library refreshes tokens within 5 minutes of expiry: one of 302 s is good for about 2 s.
    vertex.tokenLifetimeSeconds = 302;
    try {
      const ask = () => {
        vertex.upstream.enqueue({ fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' });
        return openai.chat.completions.create({ model: 'short-lived', messages: [{ role: 'user', content: 'Hi' }] });
      };
      const before = vertex.tokenRequests;
      await ask();
      await ask();
      assert.equal(vertex.tokenRequests - before, 1, 'still fresh: reused');
      const first = lastCall().headers.authorization;
      await sleep(2_500);
      await ask();
      assert.equal(vertex.tokenRequests - before, 2, 'refreshed');
      assert.notEqual(lastCall().headers.authorization, first);
      assert.equal(lastCall().headers.authorization, `Bearer ${vertex.grantedTokens.at(-1)}`);
    } finally {
      vertex.tokenLifetimeSeconds = 3600;
    }
  });

  test('a refused token request is an upstream auth error naming the provider, never the key', async () => {
    const error = await openai.chat.completions.create({ model: 'foreign-key', messages: [{ role: 'user', content: 'Hi' }] }).catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.APIError);
    assert.equal(error.status, 502);
    assert.equal(error.code, 'upstream_authentication_failed');
    assert.match(error.message, /'vertex-foreign' could not get an access token .*HTTP 400: invalid_grant/);
    const key = (JSON.parse(await readFile(foreignKeyFile, 'utf8')) as Body).private_key as string;
    assert.ok(!JSON.stringify(error.error).includes(key.split('\n')[1]!.slice(0, 20)));
    assert.ok(!gateway.logs.join('\n').includes('PRIVATE KEY'));
  });
});

describe('Gemini on Vertex', () => {
  const genai = () => new GoogleGenAI({ apiKey: gateway.apiKey, httpOptions: { baseUrl: gateway.origin } });

  test('@google/genai generateContent is passed through to :generateContent, without a model field', async () => {
    vertex.upstream.enqueue({ fixture: 'gemini/non-stream-text.json', protocol: 'gemini' });
    const response = await genai().models.generateContent({ model: 'gemini-on-vertex', contents: 'How many r in strawberry?', config: { systemInstruction: 'Be brief.' } });
    const recorded = fixtureJson('gemini/non-stream-text.json') as Body;
    assert.equal(response.text, recorded.candidates[0].content.parts.map((part: Body) => part.text).join(''));
    assert.equal(response.usageMetadata?.totalTokenCount, recorded.usageMetadata.totalTokenCount);
    assert.equal(lastCall().url, modelPath('google', 'gemini-2.5-flash', 'generateContent'));
    const body = lastCall().json as Body;
    assert.equal(body.model, undefined);
    assert.deepEqual(body.contents, [{ role: 'user', parts: [{ text: 'How many r in strawberry?' }] }]);
  });

  test('a Gemini body naming its model is forwarded without it (Vertex has no such field)', async () => {
    vertex.upstream.enqueue({ fixture: 'gemini/non-stream-text.json', protocol: 'gemini' });
    const response = await fetch(`${gateway.origin}/v1beta/models/gemini-on-vertex:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': gateway.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'models/gemini-on-vertex', contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal((lastCall().json as Body).model, undefined);
  });

  test('@google/genai generateContentStream is passed through to :streamGenerateContent?alt=sse', async () => {
    vertex.upstream.enqueue({ fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' });
    const chunks = [];
    for await (const chunk of await genai().models.generateContentStream({ model: 'gemini-on-vertex', contents: 'Hello' })) chunks.push(chunk);
    assert.ok(chunks.length > 1);
    assert.equal(chunks.map((chunk) => chunk.text ?? '').join(''), geminiStreamText);
    assert.equal(chunks.at(-1)!.candidates?.[0]?.finishReason, 'STOP');
    assert.equal(lastCall().url, `${modelPath('google', 'gemini-2.5-flash', 'streamGenerateContent')}?alt=sse`);
  });

  test('openai chat stream with a tool call, and the round trip with its result', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'weather', description: 'Current weather.', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } } },
    ];
    vertex.upstream.enqueue({ fixture: 'gemini/stream-function-call.chunks.txt', protocol: 'gemini' });
    const stream = await openai.chat.completions.create({ model: 'gemini-on-vertex', stream: true, stream_options: { include_usage: true }, tools, messages: [{ role: 'user', content: 'Weather in San Francisco?' }] });
    let name = '';
    let args = '';
    let id = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta.tool_calls?.[0];
      if (call?.id) id = call.id;
      name += call?.function?.name ?? '';
      args += call?.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    assert.equal(name, 'weather');
    assert.deepEqual(JSON.parse(args), { location: 'San Francisco' });
    assert.equal(finish, 'tool_calls');
    assert.ok((usage?.total_tokens ?? 0) > 0);
    const sent = lastCall().json as Body;
    assert.equal(sent.tools[0].functionDeclarations[0].name, 'weather');

    vertex.upstream.enqueue({ fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' });
    const second = await openai.chat.completions.create({
      model: 'gemini-on-vertex',
      tools,
      messages: [
        { role: 'user', content: 'Weather in San Francisco?' },
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] },
        { role: 'tool', tool_call_id: id, content: '{"temperature":18}' },
      ],
    });
    assert.equal(second.choices[0]!.message.content, geminiStreamText);
    const contents = (lastCall().json as Body).contents as Body[];
    assert.deepEqual(contents.map((content) => content.role), ['user', 'model', 'user']);
    assert.equal(contents[1]!.parts[0].functionCall.name, 'weather');
    assert.equal(contents[2]!.parts[0].functionResponse.name, 'weather');
  });

  test("Google's 429 RESOURCE_EXHAUSTED reaches an openai client as a 429", async () => {
    vertex.upstream.enqueue({ status: 429, json: { error: { code: 429, message: 'Resource exhausted. Please try again later.', status: 'RESOURCE_EXHAUSTED' } } });
    const error = await openai.chat.completions.create({ model: 'gemini-on-vertex', messages: [{ role: 'user', content: 'Hi' }] }).catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.RateLimitError);
    assert.match(error.message, /Resource exhausted/);
  });

  test('a chunk that is not a GenerateContentResponse reaches an openai client as a 502 naming the vertex provider', async () => {
    vertex.upstream.enqueue({ sse: [{ data: JSON.stringify({ candidates: [{ content: { parts: [{ text: 42 }] } }] }) }] });
    const error = await openai.chat.completions.create({ model: 'gemini-on-vertex', messages: [{ role: 'user', content: 'Hi' }] }).catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.APIError && error.status === 502, String(error));
    assert.match(error.message, /'vertex-gemini' \(gemini\) sent a malformed GenerateContentResponse: candidates\[0\]\.content\.parts\[0\]\.text: Invalid input: expected string, received number/);
  });
});

describe('Claude on Vertex', () => {
  const anthropic = () => new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0 });

  test('@anthropic-ai/sdk messages.create goes to :rawPredict with anthropic_version in the body, no model', async () => {
    vertex.upstream.enqueue({ fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' });
    const message = await anthropic().messages.create({ model: 'claude-on-vertex', max_tokens: 256, messages: [{ role: 'user', content: 'Hello' }] });
    const recorded = fixtureJson('anthropic-messages/non-stream-text.json') as Body;
    assert.deepEqual(message.content, recorded.content);
    assert.equal(message.usage.output_tokens, recorded.usage.output_tokens);
    assert.equal(lastCall().url, modelPath('anthropic', 'claude-haiku-4-5@20251001', 'rawPredict'));
    const body = lastCall().json as Body;
    assert.equal(body.anthropic_version, 'vertex-2023-10-16');
    assert.equal(body.model, undefined);
    assert.equal(lastCall().headers['anthropic-version'], undefined);
    assert.equal(lastCall().headers['x-api-key'], undefined);
  });

  test('@anthropic-ai/sdk messages.stream goes to :streamRawPredict', async () => {
    vertex.upstream.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' });
    const stream = anthropic().messages.stream({ model: 'claude-on-vertex', max_tokens: 256, messages: [{ role: 'user', content: 'Hello' }] });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const message = await stream.finalMessage();
    const expected = fixtureChunks('anthropic-messages/stream-text.chunks.txt')
      .map((line) => JSON.parse(line) as Body)
      .filter((event) => event.type === 'content_block_delta' && event.delta.type === 'text_delta')
      .map((event) => event.delta.text)
      .join('');
    assert.equal(text, expected);
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(lastCall().url, modelPath('anthropic', 'claude-haiku-4-5@20251001', 'streamRawPredict'));
    assert.equal((lastCall().json as Body).stream, true);
  });

  test('openai chat stream with a tool call is translated to streamRawPredict', async () => {
    vertex.upstream.enqueue({ fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', protocol: 'anthropic-messages' });
    const stream = await openai.chat.completions.create({
      model: 'claude-on-vertex',
      stream: true,
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }],
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather?' }],
    });
    let name = '';
    let args = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      const call = chunk.choices[0]?.delta.tool_calls?.[0];
      name += call?.function?.name ?? '';
      args += call?.function?.arguments ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.equal(name, 'weather');
    assert.equal(typeof JSON.parse(args), 'object');
    assert.equal(finish, 'tool_calls');
    assert.equal(lastCall().url, modelPath('anthropic', 'claude-haiku-4-5@20251001', 'streamRawPredict'));
    const body = lastCall().json as Body;
    assert.equal(body.anthropic_version, 'vertex-2023-10-16');
    assert.equal(body.model, undefined);
    assert.equal(body.system?.[0]?.text ?? body.system, 'Be brief.');
  });
});

// Last: it spoils the Gemini provider's cached token for the rest of the run.
describe('a revoked token', () => {
  test('a token the endpoint no longer honours: Google\'s 401 becomes an upstream auth error', async () => {
    vertex.expireTokens();
    const refusedBefore = vertex.unauthenticatedCalls;
    const error = await openai.chat.completions.create({ model: 'gemini-on-vertex', messages: [{ role: 'user', content: 'Hi' }] }).catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.APIError);
    assert.equal(error.status, 502);
    assert.equal(error.code, 'upstream_authentication_failed');
    assert.equal(vertex.unauthenticatedCalls - refusedBefore, 1);
  });
});
