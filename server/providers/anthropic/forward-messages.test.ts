import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeUpstream, type FakeUpstream } from '../../../test/helpers/fake-upstream.js';
import { fixtureJson, fixtureSseEvents } from '../../../test/helpers/upstream-fixtures.js';
import type { ProviderConfig } from '../../config/config-schema.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { Forwarded, ForwardedFrame } from '../provider.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { countAnthropicTokens } from './count-tokens.js';
import { createMessagesPassThrough } from './forward-messages.js';
import { anthropicVersion } from './index.js';
import { readAnthropicError } from './read-error.js';

let upstream: FakeUpstream;
let client: UpstreamClient;
const key = 'sk-ant-test-key-123456';

before(async () => {
  upstream = await startFakeUpstream();
  const config = { id: 'claude', type: 'anthropic', base_url: upstream.origin, api_key: key } as ProviderConfig;
  client = new UpstreamClient(config, 'https://api.anthropic.com', {
    readError: readAnthropicError,
    headers: { 'x-api-key': key, 'anthropic-version': anthropicVersion },
  });
});
after(async () => {
  await client.close();
  await upstream.close();
});

const context = { upstreamModel: 'claude-sonnet-4-5', signal: new AbortController().signal };
const forward = (body: Record<string, unknown>, beta?: string) =>
  createMessagesPassThrough(client, 'claude').forward(body, { ...context, stream: body.stream === true, ...(beta ? { headers: { 'anthropic-beta': beta } } : {}) });

async function eventsOf(forwarded: Forwarded): Promise<ForwardedFrame[]> {
  assert.equal(forwarded.kind, 'stream');
  const events: ForwardedFrame[] = [];
  if (forwarded.kind === 'stream') for await (const frame of forwarded.frames) events.push(frame);
  return events;
}

describe('createMessagesPassThrough', () => {
  it("forwards the client's body with only the model renamed, with our key and the client's anthropic-beta", async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/non-stream-thinking.json', protocol: 'anthropic-messages' });
    const body = {
      model: 'claude-gw',
      max_tokens: 2048,
      messages: [{ role: 'user', content: 'Divide 925 by 5.' }],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      context_management: { edits: [{ type: 'clear_thinking_20251015' }] },
    };
    const forwarded = await forward(body, 'context-management-2025-06-27,interleaved-thinking-2025-05-14');
    const request = upstream.requests.at(-1)!;
    assert.equal(request.url, '/v1/messages');
    assert.deepEqual(request.json, { ...body, model: 'claude-sonnet-4-5' });
    assert.equal(request.headers['x-api-key'], key);
    assert.equal(request.headers['anthropic-version'], anthropicVersion);
    assert.equal(request.headers['anthropic-beta'], 'context-management-2025-06-27,interleaved-thinking-2025-05-14');

    assert.equal(forwarded.kind, 'json');
    if (forwarded.kind !== 'json') return;
    assert.deepEqual(forwarded.body, fixtureJson('anthropic-messages/non-stream-thinking.json'));
    assert.deepEqual(forwarded.usage, { inputTokens: 69, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 33, reasoningTokens: 0, serviceTier: 'standard' });
  });

  it('sends no anthropic-beta when the client sent none', async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' });
    await forward({ model: 'x', max_tokens: 10, messages: [] });
    assert.equal(upstream.requests.at(-1)!.headers['anthropic-beta'], undefined);
  });

  it('hands back every stream event verbatim, and the usage of message_start and message_delta', async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/stream-thinking.chunks.txt', protocol: 'anthropic-messages' });
    const forwarded = await forward({ model: 'x', max_tokens: 10, messages: [], stream: true });
    const events = await eventsOf(forwarded);
    const recorded = fixtureSseEvents('anthropic-messages/stream-thinking.chunks.txt', 'anthropic-messages');
    assert.deepEqual(
      events.map(({ event, data }) => ({ type: event, data })),
      recorded.map(({ event, data }) => ({ type: event, data })),
    );
    assert.ok(forwarded.kind === 'stream');
    assert.deepEqual(forwarded.usage(), { inputTokens: 69, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 53, reasoningTokens: 0, serviceTier: 'standard' });
  });

  it('throws an overload reported before any content, so the router can retry it', async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/stream-overloaded-error.chunks.txt', protocol: 'anthropic-messages' });
    const forwarded = await forward({ model: 'x', max_tokens: 10, messages: [], stream: true });
    await assert.rejects(eventsOf(forwarded), (error: GatewayError) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.kind, 'overloaded');
      assert.equal(error.upstream?.status, 529);
      return true;
    });
  });

  it('forwards an error that comes after content, and ends there', async () => {
    const [start, block, , delta] = fixtureSseEvents('anthropic-messages/stream-text.chunks.txt', 'anthropic-messages');
    const error = { event: 'error', data: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' };
    upstream.enqueue({ sse: [start!, block!, delta!, error] });
    const events = await eventsOf(await forward({ model: 'x', max_tokens: 10, messages: [], stream: true }));
    assert.deepEqual(events.map((event) => event.event), ['message_start', 'content_block_start', 'content_block_delta', 'error']);
    assert.equal(events.at(-1)!.data, error.data);
  });

  it('throws when the stream stops before message_stop', async () => {
    const events = fixtureSseEvents('anthropic-messages/stream-text.chunks.txt', 'anthropic-messages');
    upstream.enqueue({ sse: events.slice(0, 5) });
    await assert.rejects(eventsOf(await forward({ model: 'x', max_tokens: 10, messages: [], stream: true })), /ended before the answer was complete/);
  });

  it('throws a refusal by HTTP status before anything is read', async () => {
    upstream.enqueue({ fixture: 'anthropic-messages/error-invalid-request.json', protocol: 'anthropic-messages', status: 400 });
    await assert.rejects(forward({ model: 'x', max_tokens: 10, messages: [] }), (error: GatewayError) => error.status === 400 && /tool_use/.test(error.message));
  });
});

describe('countAnthropicTokens', () => {
  it("asks the upstream's count_tokens with only the fields it takes", async () => {
    upstream.enqueue({ json: { input_tokens: 42 } });
    const request = {
      model: 'gw',
      instructions: [{ text: 'Be brief.' }],
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Hi' }] }],
      tools: [],
      toolChoice: { type: 'auto' as const },
      responseFormat: { type: 'text' as const },
      stopSequences: ['END'],
      temperature: 0.5,
      maxOutputTokens: 4_000,
      reasoning: { budgetTokens: 2048 },
    };
    assert.equal(await countAnthropicTokens(client, 'claude', request, context), 42);
    const sent = upstream.requests.at(-1)!;
    assert.equal(sent.url, '/v1/messages/count_tokens');
    assert.deepEqual(sent.json, {
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
  });

  it('refuses an answer without a count', async () => {
    upstream.enqueue({ json: { tokens: 'many' } });
    const request = { model: 'gw', instructions: [], messages: [], tools: [], toolChoice: { type: 'auto' as const }, responseFormat: { type: 'text' as const }, stopSequences: [] };
    await assert.rejects(countAnthropicTokens(client, 'claude', request, context), /not a number/);
  });
});
