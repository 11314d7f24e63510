import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GatewayError } from '../../core/gateway-error.js';
import { fixtureChunks, fixtureJson } from '../../../test/helpers/upstream-fixtures.js';
import type { ForwardedFrame, PassThrough } from '../provider.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { createGeminiPassThrough } from './forward-generate.js';
import { readGeminiError } from './read-error.js';

/** What the throwaway upstream answers next, and what it saw. */
let answer: (response: ServerResponse) => void = () => {};
const seen: Array<{ url?: string; headers: IncomingHttpHeaders; body: string }> = [];
const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (piece: string) => (body += piece));
  request.on('end', () => {
    seen.push({ url: request.url, headers: request.headers, body });
    answer(response);
  });
});
const sse = (lines: string[]) => (response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const line of lines) response.write(`data: ${line}\r\n\r\n`);
  response.end();
};

let client: UpstreamClient;
let passThrough: PassThrough;
const context = () => ({ upstreamModel: 'gemini-3-pro-preview', signal: new AbortController().signal });

async function collect(frames: AsyncIterable<ForwardedFrame>): Promise<{ frames: string[]; error?: unknown }> {
  const out: string[] = [];
  try {
    for await (const { data } of frames) out.push(data);
  } catch (error) {
    return { frames: out, error };
  }
  return { frames: out };
}

describe('createGeminiPassThrough', () => {
  before(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const config = { id: 'google', type: 'gemini' as const, base_url: `http://127.0.0.1:${port}`, api_key: 'test-gemini-key-0002' };
    client = new UpstreamClient(config, 'unused', { readError: readGeminiError, headers: { 'x-goog-api-key': config.api_key } });
    passThrough = createGeminiPassThrough(client, 'google');
  });
  after(async () => {
    await client.close();
    server.close();
  });

  it('streams the frames verbatim from streamGenerateContent?alt=sse, the body untouched, usage read', async () => {
    const lines = fixtureChunks('gemini/stream-text.chunks.txt');
    answer = sse(lines);
    const body = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], safetySettings: [{ category: 'X', threshold: 'OFF' }], unknownField: 1 };
    const forwarded = await passThrough.forward(body, { ...context(), stream: true });
    assert.equal(forwarded.kind, 'stream');
    if (forwarded.kind !== 'stream') return;
    const { frames, error } = await collect(forwarded.frames);
    assert.equal(error, undefined);
    assert.deepEqual(frames, lines);
    assert.deepEqual(forwarded.usage(), { inputTokens: 9, cachedInputTokens: 0, outputTokens: 208, reasoningTokens: 185 });
    const request = seen.at(-1)!;
    assert.equal(request.url, '/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
    assert.equal(request.headers['x-goog-api-key'], 'test-gemini-key-0002');
    assert.deepEqual(JSON.parse(request.body), body);
  });

  it('answers a non-stream request from generateContent, rewriting a model named in the body', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(fixtureJson('gemini/non-stream-function-call.json')));
    };
    const forwarded = await passThrough.forward({ model: 'models/gateway-id', contents: [] }, { ...context(), stream: false });
    assert.equal(forwarded.kind, 'json');
    if (forwarded.kind !== 'json') return;
    assert.deepEqual(forwarded.body, fixtureJson('gemini/non-stream-function-call.json'));
    assert.deepEqual(forwarded.usage, { inputTokens: 29, cachedInputTokens: 0, outputTokens: 908, reasoningTokens: 893 });
    assert.equal(seen.at(-1)!.url, '/v1beta/models/gemini-3-pro-preview:generateContent');
    assert.equal(JSON.parse(seen.at(-1)!.body).model, 'models/gemini-3-pro-preview');
  });

  it('throws an error chunk that comes first, so the router can retry', async () => {
    answer = sse(['{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}']);
    const forwarded = await passThrough.forward({ contents: [] }, { ...context(), stream: true });
    if (forwarded.kind !== 'stream') throw new Error('expected a stream');
    const { frames, error } = await collect(forwarded.frames);
    assert.deepEqual(frames, []);
    assert.ok(error instanceof GatewayError);
    assert.equal(error.upstream?.status, 503);
  });

  it('forwards a later error chunk, and calls a stream without finishReason cut off', async () => {
    const [first] = fixtureChunks('gemini/stream-text.chunks.txt');
    const failure = '{"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}';
    answer = sse([first!, failure]);
    let forwarded = await passThrough.forward({ contents: [] }, { ...context(), stream: true });
    if (forwarded.kind !== 'stream') throw new Error('expected a stream');
    let result = await collect(forwarded.frames);
    assert.deepEqual(result, { frames: [first, failure] });

    answer = sse([first!]);
    forwarded = await passThrough.forward({ contents: [] }, { ...context(), stream: true });
    if (forwarded.kind !== 'stream') throw new Error('expected a stream');
    result = await collect(forwarded.frames);
    assert.deepEqual(result.frames, [first]);
    assert.ok(result.error instanceof GatewayError);
  });
});
