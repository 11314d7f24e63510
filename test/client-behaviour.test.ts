// Clients that read slowly or leave mid-stream (issue 10, item 3): the gateway holds the upstream back instead of
// buffering a large stream without bound, aborts the upstream call once the client has gone and the drain's
// bytes (ledger.abandoned_streams.drain_bytes, 16 MiB) are read, and still records usage.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { configSchema } from '../server/config/config-schema.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

const frameContent = 'x'.repeat(32 * 1024);
/** Far more than every buffer between the upstream and the client can hold (kernel socket buffers included). */
const upstreamTotalBytes = 256 * 1024 * 1024;

/** What the upstream wrote so far, and whether its response was closed before it finished. */
const upstreamState = { sent: 0, closedEarly: undefined as Promise<unknown> | undefined };
let upstream: ReturnType<typeof createServer>;
let gateway: TestGateway;

/** A chat upstream that streams as fast as its socket takes it, waiting for `drain` as a well-behaved server does. */
async function streamChunks(req: IncomingMessage, res: ServerResponse): Promise<void> {
  for await (const _ of req); // the request body
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  upstreamState.sent = 0;
  upstreamState.closedEarly = once(res, 'close');
  const frame = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: frameContent }, finish_reason: null }] })}\n\n`;
  while (upstreamState.sent < upstreamTotalBytes && !res.destroyed) {
    upstreamState.sent += frame.length;
    if (!res.write(frame)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  res.end('data: [DONE]\n\n');
}

before(async () => {
  upstream = createServer((req, res) => void streamChunks(req, res)).listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const port = (upstream.address() as AddressInfo).port;
  gateway = await startGateway({
    config: configSchema.parse({
      providers: [{ id: 'fast', type: 'openai', base_url: `http://127.0.0.1:${port}/v1`, api_key: 'sk-upstream' }],
      models: [{ id: 'big-stream', provider: 'fast', upstream_model: 'm' }],
    }),
  });
});

after(async () => {
  await gateway.close();
  upstream.closeAllConnections();
  upstream.close();
});

/** Requests of `big-stream` in the gateway's ledger, as the key's owner sees them. */
async function meteredRequests(): Promise<number> {
  const report = (await fetch(`${gateway.origin}/v1/usage?group_by=model`, { headers: { authorization: `Bearer ${gateway.apiKey}` } }).then((r) => r.json())) as {
    data: Array<{ model: string; requests: number }>;
  };
  return report.data.find((row) => row.model === 'big-stream')?.requests ?? 0;
}

const clients = [
  { name: 'a Chat Completions client (passed through)', path: '/v1/chat/completions', headers: {} },
  { name: 'an Anthropic Messages client (translated)', path: '/v1/messages', headers: { 'anthropic-version': '2023-06-01' } },
];

for (const { name, path, headers } of clients) {
  test(`${name} that stops reading a large stream holds the upstream back; leaving aborts it and is still metered`, { timeout: 60_000 }, async () => {
    const meteredBefore = await meteredRequests();
    const client = request(`${gateway.origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json', ...headers },
    });
    client.end(JSON.stringify({ model: 'big-stream', max_tokens: 100_000, messages: [{ role: 'user', content: 'a lot, please' }], stream: true }));
    const [response] = (await once(client, 'response')) as [IncomingMessage];
    assert.equal(response.statusCode, 200);
    await once(response, 'data');
    response.pause();

    // Wait until the upstream has been stalled for half a second, for at most 15 s.
    let stalledAt: number | undefined;
    for (let waited = 0, last = -1; waited < 15_000; waited += 500) {
      await sleep(500);
      if (upstreamState.sent === last) {
        stalledAt = upstreamState.sent;
        break;
      }
      last = upstreamState.sent;
    }
    assert.ok(stalledAt !== undefined, `the upstream never stalled: ${upstreamState.sent} bytes sent`);
    assert.ok(stalledAt < 64 * 1024 * 1024, `${(stalledAt / 2 ** 20).toFixed(1)} MB left the upstream while the client read nothing`);

    response.destroy();
    client.destroy();
    await Promise.race([upstreamState.closedEarly, sleep(2_000).then(() => assert.fail('the upstream call was not aborted within 2 s'))]);
    assert.ok(upstreamState.sent < upstreamTotalBytes, 'the upstream was stopped before it finished');

    // The request is in the ledger although its answer never finished.
    for (let tries = 0; (await meteredRequests()) !== meteredBefore + 1; tries++) {
      assert.ok(tries < 50, 'no usage row 5 s after the client left');
      await sleep(100);
    }
  });
}
