// Anthropic Messages clients on Anthropic upstreams: the body goes through with only the model name, the
// auth and anthropic-beta rewritten, whatever it holds (betas, server tools, blocks the gateway does not
// translate); the recorded stream comes back byte for byte; an overload the upstream reports before any
// content is retried unseen, one after it reaches the client in-band, and one that lasts is a 529.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { assertAnthropicStream, parseAnthropicSse, recordAnthropicStreams } from './helpers/anthropic-stream.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixtureSseEvents, toSseBody } from './helpers/upstream-fixtures.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let upstream: FakeUpstream;
let gateway: TestGateway;
let client: Anthropic;
const wire = recordAnthropicStreams();

before(async () => {
  upstream = await startFakeUpstream();
  const config = configSchema.parse({
    providers: [{ id: 'claude', type: 'anthropic', base_url: upstream.origin, api_key: upstreamKey }],
    models: [
      { id: 'claude-model', provider: 'claude', upstream_model: 'claude-sonnet-4-5', capabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema', 'reasoning'] },
      // The anthropic defaults: no reasoning unless configured.
      { id: 'claude-plain', provider: 'claude', upstream_model: 'claude-haiku-4-5' },
      { id: 'claude-once', provider: 'claude', upstream_model: 'claude-sonnet-4-5', fallbacks: [] },
    ],
    routing: { backoff_ms: 0, max_backoff_ms: 0, failures_before_cooldown: 100 },
  });
  gateway = await startGateway({ config });
  client = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0, fetch: wire.fetch });
});
after(async () => {
  await gateway.close();
  await upstream.close();
});

/** A raw call, as Claude Code makes it: 0.x-style `?beta=true`, `x-api-key`, betas and a newer version date. */
function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gateway.origin}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': gateway.apiKey, 'anthropic-version': '2099-01-01', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const lastRequest = () => upstream.requests.at(-1)!;

/** A request in the shape Claude Code sends, with fields, tools and blocks the gateway does not translate. */
const claudeCodeRequest = {
  model: 'claude-model',
  max_tokens: 32000,
  stream: true,
  system: [
    { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
    { type: 'text', text: 'Project instructions', cache_control: { type: 'ephemeral' } },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'What changed in the news today?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Search first.', signature: 'EqQBCkgIARAB' },
        { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'news today' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', url: 'https://example.com', title: 'News', encrypted_content: 'abc' }] },
        { type: 'text', text: 'Here is the news.', citations: null },
      ],
    },
    { role: 'user', content: [{ type: 'text', text: 'Divide 925 by 5.', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
  ],
  tools: [
    { name: 'Bash', description: 'Runs a command.', input_schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 8 },
  ],
  tool_choice: { type: 'auto' },
  thinking: { type: 'enabled', budget_tokens: 31999 },
  temperature: 1,
  metadata: { user_id: 'user_abc_account__session_123' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  output_config: { effort: 'high' },
};

describe('pass-through to an Anthropic upstream', () => {
  test('forwards everything but the model, auth and anthropic-beta, and streams the answer back byte for byte', async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/stream-thinking.chunks.txt', protocol: 'anthropic-messages' });
    const beta = 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27';
    const response = await post('/v1/messages?beta=true', claudeCodeRequest, { 'anthropic-beta': beta });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-gateway-provider'), 'claude');
    const text = await response.text();
    const recorded = fixtureSseEvents('anthropic-messages/stream-thinking.chunks.txt', 'anthropic-messages');
    assert.equal(text, toSseBody(recorded), 'the recorded stream, frame for frame');
    assertAnthropicStream(parseAnthropicSse(text));

    const request = lastRequest();
    assert.equal(request.url, '/v1/messages');
    assert.deepEqual(request.json, { ...claudeCodeRequest, model: 'claude-sonnet-4-5' });
    assert.equal(request.headers['anthropic-beta'], beta);
    assert.equal(request.headers['x-api-key'], upstreamKey, "the gateway's key, not the client's");
    assert.equal(request.headers['anthropic-version'], '2023-06-01');
    assert.equal(request.headers.authorization, undefined);
  });

  test('a non-stream answer is the upstream JSON as it came', async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/non-stream-thinking.json', protocol: 'anthropic-messages' });
    const message = await client.messages.create({
      model: 'claude-model',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'Divide 925 by 5.' }],
    });
    assert.equal(message.model, 'claude-sonnet-4-5-20250929', "the upstream's own model name");
    assert.deepEqual(message.content.map((block) => block.type), ['thinking', 'text']);
    assert.equal((message.content[0] as Anthropic.ThinkingBlock).signature.slice(0, 8), 'Er4BCkYI');
  });

  test('a model without the reasoning capability gets no thinking, and says so', async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' });
    const { response } = await client.messages
      .create({ model: 'claude-plain', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    assert.equal(response.headers.get('x-gateway-dropped-params'), 'thinking');
    assert.deepEqual(lastRequest().json, { model: 'claude-haiku-4-5', max_tokens: 2048, messages: [{ role: 'user', content: 'Hi' }] });
  });

  test('an overload reported in the stream before any content is retried unseen', async () => {
    const before = upstream.requests.length;
    upstream.enqueue(
      { fixture: 'anthropic-messages/stream-overloaded-error.chunks.txt', protocol: 'anthropic-messages' },
      { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
    );
    const message = await client.messages.stream({ model: 'claude-model', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] }).finalMessage();
    assert.match((message.content[0] as Anthropic.TextBlock).text, /^Hello! I'm doing well/);
    assert.equal(upstream.requests.length - before, 2, 'tried twice');
    const [events] = await wire.checked();
    assert.equal(events!.filter((event) => event.type === 'message_start').length, 1, 'the failed attempt left no trace');
  });

  test('an overload after content has begun reaches the client as an error event', async () => {
    const [start, block, , delta] = fixtureSseEvents('anthropic-messages/stream-text.chunks.txt', 'anthropic-messages');
    upstream.enqueue({ sse: [start!, block!, delta!, { event: 'error', data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' }] });
    const stream = client.messages.stream({ model: 'claude-model', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
    await assert.rejects(stream.finalMessage(), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, String(error));
      assert.equal((error.error as Body).error.type, 'overloaded_error');
      return true;
    });
    const [events] = await wire.checked();
    assert.deepEqual(events!.map((event) => event.type), ['message_start', 'content_block_start', 'content_block_delta', 'error']);
  });

  test('an upstream that stays overloaded is a 529 overloaded_error for Anthropic clients and a 503 for OpenAI ones', async () => {
    const overloaded = { status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
    upstream.enqueue(overloaded, overloaded, overloaded);
    const response = await post('/v1/messages', { model: 'claude-once', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(response.status, 529);
    const body = (await response.json()) as Body;
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'overloaded_error');

    upstream.enqueue(overloaded, overloaded, overloaded);
    const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    await assert.rejects(openai.chat.completions.create({ model: 'claude-once', messages: [{ role: 'user', content: 'Hi' }] }), (error: InstanceType<typeof OpenAI.APIError>) => error.status === 503);
  });

  test("an upstream 400 comes back with Anthropic's words and status", async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/error-invalid-request.json', protocol: 'anthropic-messages', status: 400 });
    await assert.rejects(client.messages.create({ model: 'claude-model', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error));
      assert.match(error.message, /tool_use` ids were found without `tool_result` blocks/);
      assert.equal((error.error as Body).error.type, 'invalid_request_error');
      return true;
    });
  });

  test('count_tokens asks the upstream', async () => {
    upstream.enqueue({ json: { input_tokens: 77 } });
    const response = await post('/v1/messages/count_tokens?beta=true', { model: 'claude-model', messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { input_tokens: 77 });
    assert.equal(lastRequest().url, '/v1/messages/count_tokens');
  });
});
