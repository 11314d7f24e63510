import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fixtureJson, fixtureSseEvents, toSseBody } from '../../../test/helpers/upstream-fixtures.js';
import { collectStream } from '../../core/collect-stream.js';
import { modelRequest, userSays } from '../../../test/helpers/model-request-fixtures.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { Provider } from '../provider.js';
import { createAnthropicProvider } from './index.js';

/** What the fake upstream answers next, and what it was last sent. */
let reply: { status: number; contentType: string; body: string };
let received: { method?: string; url?: string; headers: IncomingHttpHeaders; body: Record<string, unknown> } | undefined;

const replayFixture = (name: string) => {
  reply = { status: 200, contentType: 'text/event-stream', body: toSseBody(fixtureSseEvents(`anthropic-messages/${name}`, 'anthropic-messages')) };
};
const context = () => ({ upstreamModel: 'claude-sonnet-4-5-20250929', signal: AbortSignal.timeout(5_000) });

describe('createAnthropicProvider against a replaying upstream', () => {
  let server: Server;
  let provider: Provider;

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received = { method: request.method, url: request.url, headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
        response.writeHead(reply.status, { 'content-type': reply.contentType });
        response.end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    provider = createAnthropicProvider({ id: 'anthropic-test', type: 'anthropic', base_url: `http://127.0.0.1:${port}`, api_key: 'sk-ant-test-0123456789' });
  });

  after(async () => {
    await provider.close?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('posts a streamed request to /v1/messages with the key and version, and streams the answer', async () => {
    replayFixture('stream-text.chunks.txt');
    const response = await collectStream(provider.stream(modelRequest([userSays('How are you?')]), context()));
    assert.equal(provider.type, 'anthropic');
    assert.equal(provider.id, 'anthropic-test');
    assert.equal(received?.method, 'POST');
    assert.equal(received?.url, '/v1/messages');
    assert.equal(received?.headers['x-api-key'], 'sk-ant-test-0123456789');
    assert.equal(received?.headers['anthropic-version'], '2023-06-01');
    assert.equal(received?.body.model, 'claude-sonnet-4-5-20250929');
    assert.equal(received?.body.stream, true);
    assert.equal(response.id, 'msg_01QC4g3HwBThD4BaNtBckFDJ');
    assert.deepEqual(response.content, [{ type: 'text', text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?" }]);
    assert.equal(response.finishReason, 'stop');
    assert.equal(response.usage.outputTokens, 30);
  });

  it('answers a JSON request with the json tool’s input as text', async () => {
    replayFixture('stream-text-then-tool-use.chunks.txt');
    const response = await collectStream(provider.stream(modelRequest([userSays('Weather?')], { responseFormat: { type: 'json_object' } }), context()));
    assert.deepEqual(received?.body.tool_choice, { type: 'tool', name: 'json' });
    assert.equal(response.finishReason, 'stop');
    const [part] = response.content;
    assert.ok(part?.type === 'text');
    assert.deepEqual(Object.keys(JSON.parse(part.text)), ['elements']);
  });

  it('throws the upstream’s 400 message before yielding anything', async () => {
    const body = fixtureJson('anthropic-messages/error-invalid-request.json');
    reply = { status: 400, contentType: 'application/json', body: JSON.stringify(body) };
    const iterator = provider.stream(modelRequest([userSays('Hi')]), context())[Symbol.asyncIterator]();
    await assert.rejects(iterator.next(), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.kind, 'invalid_request');
      assert.equal(error.status, 400);
      assert.equal(error.message, (body.error as { message: string }).message);
      assert.deepEqual([error.upstream?.providerId, error.upstream?.status], ['anthropic-test', 400]);
      return true;
    });
  });

  it('throws a 529 as overloaded', async () => {
    reply = { status: 529, contentType: 'application/json', body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) };
    await assert.rejects(collectStream(provider.stream(modelRequest([userSays('Hi')]), context())), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.kind, 'overloaded');
      assert.equal(error.upstream?.status, 529);
      assert.match(error.message, /Overloaded/);
      return true;
    });
  });
});
