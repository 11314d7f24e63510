// Anthropic's batch create with its requests inline (forward-batches.ts): the body is written to a file a page of
// requests at a time and streamed from there (UpstreamClient.exchangeJsonFile), arriving as the one JSON body
// exchangeJson would have sent, with its content-length and the provider's headers; a refusal is read as
// exchangeJson reads one; and the file is gone afterwards either way.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeUpstream, type FakeUpstream } from '../../../test/helpers/fake-upstream.js';
import type { ProviderConfig } from '../../config/config-schema.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ForwardedRequest, ForwardedRequests } from '../upstream-batch-api.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { createAnthropicBatches } from './forward-batches.js';
import { readAnthropicError } from './read-error.js';

let upstream: FakeUpstream;
let client: UpstreamClient;
let scratchDirectory: string;

before(async () => {
  upstream = await startFakeUpstream();
  scratchDirectory = await mkdtemp(join(tmpdir(), 'anthropic-batches-'));
  const config = { id: 'ant', type: 'anthropic', base_url: upstream.origin, api_key: 'sk-ant-key', headers: { 'x-proxy': 'proxied' } } as ProviderConfig;
  client = new UpstreamClient(config, 'https://api.anthropic.com', { readError: readAnthropicError, headers: { 'x-api-key': 'sk-ant-key', 'anthropic-version': '2023-06-01' } });
});
after(async () => {
  await client.close();
  await upstream.close();
  await rm(scratchDirectory, { recursive: true, force: true });
});

/** Three pages (one of them empty), as the store may hand them. */
const pages: ForwardedRequest[][] = [
  [{ customId: 'a', body: { model: 'claude-up', max_tokens: 8, messages: [{ role: 'user', content: 'é'.repeat(50_000) }] } }],
  [],
  [
    { customId: 'b', body: { model: 'claude-up', max_tokens: 8, messages: [{ role: 'user', content: 'b' }] } },
    { customId: 'c', body: { model: 'claude-up', max_tokens: 8, messages: [{ role: 'user', content: 'c' }] } },
  ],
];
const requests = (): ForwardedRequests => ({
  scratchDirectory,
  async *pages() {
    yield* pages;
  },
});

test("the requests arrive as one JSON body, with its content-length and the provider's headers, and the file is removed", async () => {
  upstream.enqueue({ json: { id: 'msgbatch_up_1', type: 'message_batch' } }, { json: { id: 'msgbatch_up_2' } });
  const id = await createAnthropicBatches(client).create({ requests: requests(), endpoint: '/v1/messages', tag: 'ubatch_1' }, new AbortController().signal);
  assert.equal(id, 'msgbatch_up_1');
  const sent = upstream.requests.at(-1)!;
  const expected = { requests: pages.flat().map((request) => ({ custom_id: request.customId, params: request.body })) };
  assert.equal(sent.url, '/v1/messages/batches');
  assert.deepEqual(sent.json, expected);
  assert.equal(sent.headers['content-length'], String(Buffer.byteLength(JSON.stringify(expected))));
  // The same headers as exchangeJson's.
  await client.exchangeJson('/v1/messages/batches', expected, new AbortController().signal);
  const inline = upstream.requests.at(-1)!;
  for (const header of ['x-api-key', 'anthropic-version', 'x-proxy', 'content-type', 'content-length']) assert.equal(sent.headers[header], inline.headers[header], header);
  assert.deepEqual(await readdir(scratchDirectory), []);
});

test('a refused create is the GatewayError exchangeJson throws, its status and message read, and the file is removed', async () => {
  upstream.enqueue({ status: 413, json: { type: 'error', error: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } } });
  await assert.rejects(createAnthropicBatches(client).create({ requests: requests(), endpoint: '/v1/messages', tag: 'ubatch_2' }, new AbortController().signal), (error: unknown) => {
    assert.ok(error instanceof GatewayError);
    assert.equal(error.upstream?.status, 413);
    assert.match(error.message, /maximum allowed number of bytes/);
    return true;
  });
  assert.deepEqual(await readdir(scratchDirectory), []);
});
