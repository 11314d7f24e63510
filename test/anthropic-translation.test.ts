// What an Anthropic Messages request becomes on upstreams that speak something else, beyond the basics
// of anthropic-sdk.test.ts: sampling settings, thinking, structured output, capability gating, what is
// left out or refused, and failures (mid-stream, overload) told the way Anthropic tells them.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { configSchema } from '../server/config/config-schema.js';
import { recordAnthropicStreams } from './helpers/anthropic-stream.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixtureSseEvents } from './helpers/upstream-fixtures.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let openai: FakeUpstream;
let gemini: FakeUpstream;
let gateway: TestGateway;
let client: Anthropic;
const wire = recordAnthropicStreams();
afterEach(async () => void (await wire.checked()));

before(async () => {
  [openai, gemini] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = configSchema.parse({
    providers: [
      { id: 'local', type: 'openai-compatible', base_url: `${openai.origin}/v1`, api_key: upstreamKey },
      { id: 'google', type: 'gemini', base_url: gemini.origin, api_key: upstreamKey },
      { id: 'builtin', type: 'builtin', chunk_delay_ms: 0 },
    ],
    models: [
      { id: 'reasoner', provider: 'local', upstream_model: 'deepseek-reasoner', capabilities: ['chat', 'streaming', 'tools', 'json_schema', 'reasoning'] },
      { id: 'no-tools', provider: 'local', upstream_model: 'small', capabilities: ['chat', 'streaming'] },
      { id: 'strict-no-tools', provider: 'local', upstream_model: 'small', capabilities: ['chat', 'streaming'], on_unsupported: 'reject' },
      { id: 'gemini-model', provider: 'google', upstream_model: 'gemini-2.5-flash' },
      { id: 'echo', provider: 'builtin', upstream_model: 'echo' },
    ],
    routing: { max_attempts: 1 },
  });
  gateway = await startGateway({ config });
  client = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0, fetch: wire.fetch });
});
after(async () => {
  await gateway.close();
  await Promise.all([openai.close(), gemini.close()]);
});

const sentTo = (upstream: FakeUpstream) => upstream.requests.at(-1)!.json as Body;
const textReply = { fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' } as const;

describe('translated Anthropic Messages requests', () => {
  test('sampling settings, stop sequences and the end user reach a Chat Completions upstream; top_k has no home there', async () => {
    openai.enqueue(textReply);
    await client.messages.create({
      model: 'reasoner',
      max_tokens: 300,
      temperature: 0.4,
      top_p: 0.8,
      top_k: 20,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-7' },
      messages: [{ role: 'user', content: 'Hi' }],
    } as Anthropic.MessageCreateParamsNonStreaming);
    const body = sentTo(openai);
    assert.deepEqual(
      { max_tokens: body.max_tokens, temperature: body.temperature, top_p: body.top_p, stop: body.stop, user: body.user, top_k: body.top_k },
      { max_tokens: 300, temperature: 0.4, top_p: 0.8, stop: ['END'], user: 'user-7', top_k: undefined },
    );
  });

  test('streamed reasoning arrives as a thinking block; sent back unsigned, it is not replayed to the upstream', async () => {
    openai.enqueue({ fixture: 'openai-chat/stream-reasoning-content.chunks.txt', protocol: 'openai-chat' });
    const first = await client.messages
      .stream({ model: 'reasoner', max_tokens: 2000, thinking: { type: 'adaptive' }, output_config: { effort: 'low' }, messages: [{ role: 'user', content: 'Is 91 prime?' }] })
      .finalMessage();
    assert.equal(sentTo(openai).reasoning_effort, 'low', 'adaptive thinking with an effort');
    assert.deepEqual(first.content.map((block) => block.type), ['thinking', 'text']);
    const thinking = first.content[0] as Anthropic.ThinkingBlock;
    assert.ok(thinking.thinking.length > 20);
    assert.equal(thinking.signature, '', 'no upstream signature to carry');

    openai.enqueue(textReply);
    await client.messages.create({
      model: 'reasoner',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 16000 },
      messages: [
        { role: 'user', content: 'Is 91 prime?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'Why?' },
      ],
    });
    const body = sentTo(openai);
    assert.equal(body.reasoning_effort, 'high', 'a budget as the nearest effort');
    assert.deepEqual(body.messages[1], { role: 'assistant', content: (first.content[1] as Anthropic.TextBlock).text });
  });

  test('output_config.format becomes a JSON schema response format', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'integer' } }, required: ['answer'], additionalProperties: false };
    openai.enqueue(textReply);
    await client.messages.create({ model: 'reasoner', max_tokens: 100, output_config: { format: { type: 'json_schema', schema } }, messages: [{ role: 'user', content: '2+2?' }] });
    assert.deepEqual(sentTo(openai).response_format, { type: 'json_schema', json_schema: { name: 'response', schema } });

    const message = await client.messages.create({ model: 'echo', max_tokens: 100, output_config: { format: { type: 'json_schema', schema } }, messages: [{ role: 'user', content: 'The answer is 4' }] });
    const answer = JSON.parse((message.content[0] as Anthropic.TextBlock).text) as Body;
    assert.equal(typeof answer.answer, 'number', 'the built-in model answers in the schema');
  });

  test('tools a model cannot take are dropped and named, or refused where the model says reject', async () => {
    const tools = [{ name: 'lookup', input_schema: { type: 'object' as const, properties: {} } }];
    openai.enqueue(textReply);
    const { response } = await client.messages
      .create({ model: 'no-tools', max_tokens: 100, tools, tool_choice: { type: 'auto' }, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    assert.equal(response.headers.get('x-gateway-dropped-params'), 'tools, tool_choice');
    assert.equal(sentTo(openai).tools, undefined);

    await assert.rejects(client.messages.create({ model: 'strict-no-tools', max_tokens: 100, tools, messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError);
      assert.equal((error.error as Body).error.type, 'invalid_request_error');
      return true;
    });
  });

  test("Anthropic's own tools are refused; blocks only Anthropic reads are left out; unknown fields are ignored", async () => {
    const send = (body: Body) =>
      fetch(`${gateway.origin}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'reasoner', max_tokens: 100, ...body }),
      });
    const refused = await send({ tools: [{ type: 'web_search_20250305', name: 'web_search' }], messages: [{ role: 'user', content: 'News?' }] });
    assert.equal(refused.status, 400);
    const error = (await refused.json()) as Body;
    assert.equal(error.error.type, 'invalid_request_error');
    assert.match(error.error.message, /web_search_20250305/);

    openai.enqueue(textReply);
    const accepted = await send({
      container: 'container_1',
      context_management: { edits: [] },
      service_tier: 'auto',
      messages: [
        { role: 'user', content: 'News?' },
        { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }, { type: 'text', text: 'Found it.' }] },
        { role: 'user', content: 'Thanks' },
      ],
    });
    assert.equal(accepted.status, 200);
    assert.deepEqual(sentTo(openai).messages, [
      { role: 'user', content: 'News?' },
      { role: 'assistant', content: 'Found it.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  test('unknown fields named in x-gateway-dropped-params are header-safe whatever their characters (bad-input seed 107278842)', async () => {
    openai.enqueue(textReply);
    const response = await fetch(`${gateway.origin}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'reasoner', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }], 'max\u007f': 1, 模型: 2, 'a,b': 3 }),
    });
    assert.equal(response.status, 200);
    const named = response.headers.get('x-gateway-dropped-params')!.split(', ').map(decodeURIComponent);
    assert.deepEqual(named.sort(), ['a,b', 'max\u007f', '模型'].sort());
    await response.text();
  });

  test('an upstream stream that breaks off ends with an error event', async () => {
    const events = fixtureSseEvents('openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat');
    openai.enqueue({ sse: events.slice(0, 10) });
    const stream = client.messages.stream({ model: 'reasoner', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
    await assert.rejects(stream.finalMessage(), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, String(error));
      assert.equal((error.error as Body).error.type, 'api_error');
      return true;
    });
    const [frames] = await wire.checked();
    assert.equal(frames!.at(-1)!.type, 'error');
    assert.ok(frames!.some((event) => event.type === 'content_block_delta'), 'content came before the failure');
  });

  test('an overloaded Gemini is a 529 overloaded_error', async () => {
    gemini.enqueue({ status: 503, json: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } });
    await assert.rejects(client.messages.create({ model: 'gemini-model', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError, String(error));
      assert.equal(error.status, 529);
      assert.equal((error.error as Body).error.type, 'overloaded_error');
      return true;
    });
  });

  test('count_tokens of an unknown model is a 404; a malformed request a 400 naming the field', async () => {
    await assert.rejects(client.messages.countTokens({ model: 'nope', messages: [{ role: 'user', content: 'Hi' }] }), Anthropic.NotFoundError);
    await assert.rejects(client.messages.create({ model: 'echo', max_tokens: 10, messages: [{ role: 'robot', content: 'Hi' }] } as never), (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError);
      assert.match(error.message, /messages/);
      return true;
    });
  });
});
