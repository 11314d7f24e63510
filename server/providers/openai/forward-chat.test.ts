import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ProviderConfig } from '../../config/config-schema.js';
import { GatewayError } from '../../core/gateway-error.js';
import { fixtureJson, fixtureSseEvents, toSseBody } from '../../../test/helpers/upstream-fixtures.js';
import { resolveQuirks, type ResolvedQuirks } from '../openai-compatible/quirks.js';
import type { Forwarded } from '../provider.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { createChatPassThrough } from './forward-chat.js';
import { readOpenAIError } from './read-error.js';

/** What the fake upstream answers next, and what it was sent. */
let reply: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '{}' };
const received: Array<{ body: Record<string, unknown>; authorization?: string }> = [];

const recordedEvents = fixtureSseEvents('openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat');
const sse = (body: string) => ({ status: 200, type: 'text/event-stream', body });
const json = (status: number, body: unknown) => ({ status, type: 'application/json', body: JSON.stringify(body) });

let server: Server;
let client: UpstreamClient;

before(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => (text += part));
    req.on('end', () => {
      received.push({ body: JSON.parse(text) as Record<string, unknown>, authorization: req.headers.authorization });
      res.writeHead(reply.status, { 'content-type': reply.type });
      // Several writes, so the stream really arrives in pieces.
      const third = Math.ceil(reply.body.length / 3);
      res.write(reply.body.slice(0, third));
      res.write(reply.body.slice(third, 2 * third));
      res.end(reply.body.slice(2 * third));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const config = { id: 'fake', type: 'openai', base_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, api_key: 'sk-test-key-123456' } as ProviderConfig;
  client = new UpstreamClient(config, 'https://api.openai.com/v1', { readError: readOpenAIError, headers: { authorization: `Bearer ${config.api_key}` } });
});

after(async () => {
  await client.close();
  await new Promise((resolve) => server.close(resolve));
});

const context = { upstreamModel: 'gpt-4.1-nano', signal: new AbortController().signal };
const forward = (body: Record<string, unknown>, quirks: ResolvedQuirks = resolveQuirks(undefined, 'openai')) =>
  createChatPassThrough(client, 'fake', quirks).forward(body, { ...context, stream: body.stream === true });

async function framesOf(forwarded: Forwarded): Promise<string[]> {
  assert.equal(forwarded.kind, 'stream');
  const frames: string[] = [];
  if (forwarded.kind === 'stream') for await (const { data } of forwarded.frames) frames.push(data);
  return frames;
}

const recordedUsage = { inputTokens: 16, cachedInputTokens: 0, outputTokens: 300, reasoningTokens: 0, serviceTier: 'default' };
const messages = [{ role: 'user', content: 'Invent a holiday.' }];

describe('chat pass-through', () => {
  it('pipes the recorded stream byte for byte and reads its usage', async () => {
    reply = sse(toSseBody(recordedEvents));
    const forwarded = await forward({ model: 'nano', messages, stream: true, stream_options: { include_usage: true } });
    const frames = await framesOf(forwarded);
    assert.equal(toSseBody(frames.map((data) => ({ data }))), reply.body);
    assert.equal(frames.at(-1), '[DONE]');
    assert.deepEqual(forwarded.kind === 'stream' && forwarded.usage(), recordedUsage);
    assert.deepEqual(received.at(-1), {
      body: { model: 'gpt-4.1-nano', messages, stream: true, stream_options: { include_usage: true } },
      authorization: 'Bearer sk-test-key-123456',
    });
  });

  it('asks for usage when the client did not, reads it, and keeps the usage chunk from the client', async () => {
    reply = sse(toSseBody(recordedEvents));
    const forwarded = await forward({ model: 'nano', messages, stream: true, temperature: 0.2 });
    const frames = await framesOf(forwarded);
    const withoutUsageChunk = recordedEvents.map((event) => event.data).filter((data) => !data.includes('"choices":[],"usage":{'));
    assert.equal(withoutUsageChunk.length, recordedEvents.length - 1);
    assert.deepEqual(frames, withoutUsageChunk);
    assert.deepEqual(forwarded.kind === 'stream' && forwarded.usage(), recordedUsage);
    assert.deepEqual(received.at(-1)?.body, { model: 'gpt-4.1-nano', messages, stream: true, temperature: 0.2, stream_options: { include_usage: true } });
  });

  it('throws from the frames when the stream ends without [DONE]', async () => {
    reply = sse(toSseBody(recordedEvents.slice(0, 10)));
    const forwarded = await forward({ model: 'nano', messages, stream: true });
    await assert.rejects(framesOf(forwarded), (error) => error instanceof GatewayError && error.kind === 'upstream' && /ended before/.test(error.message));
  });

  it('returns a non-stream body with its usage', async () => {
    const recorded = fixtureJson('openai-chat/non-stream-text.json');
    reply = json(200, recorded);
    const forwarded = await forward({ model: 'nano', messages });
    assert.deepEqual(forwarded, { kind: 'json', body: recorded, usage: { inputTokens: 16, cachedInputTokens: 0, outputTokens: 363, reasoningTokens: 0, serviceTier: 'default' } });
    assert.equal('stream_options' in received.at(-1)!.body, false);
  });

  it('applies only the quirks: token field, developer role, no stream_options', async () => {
    reply = json(200, fixtureJson('openai-chat/non-stream-text.json'));
    const compatible = { ...resolveQuirks(undefined, 'openai-compatible'), streamOptions: false };
    const developer = [{ role: 'developer', content: 'Be brief.' }, ...messages];
    await forward({ model: 'nano', messages: developer, max_completion_tokens: 64, stream_options: { include_usage: true }, top_k: 3 }, compatible);
    assert.deepEqual(received.at(-1)?.body, {
      model: 'gpt-4.1-nano',
      messages: [{ role: 'system', content: 'Be brief.' }, ...messages],
      max_tokens: 64,
      top_k: 3,
    });
    await forward({ model: 'nano', messages: developer, max_tokens: 64 });
    assert.deepEqual(received.at(-1)?.body, { model: 'gpt-4.1-nano', messages: developer, max_completion_tokens: 64 });
  });

  it('throws the upstream 400 with its message and param before any frame', async () => {
    const recorded = fixtureJson<{ error: { message: string } }>('openai-chat/error-unsupported-parameter.json');
    reply = json(400, recorded);
    await assert.rejects(
      forward({ model: 'nano', messages, stream: true }),
      (error) =>
        error instanceof GatewayError &&
        error.kind === 'invalid_request' &&
        error.status === 400 &&
        error.message === recorded.error.message &&
        error.param === 'max_tokens' &&
        error.code === 'unsupported_parameter' &&
        error.upstream?.providerId === 'fake',
    );
  });
});
