import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { modelRequest, userSays } from '../../../test/helpers/model-request-fixtures.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { fixtureChunks, fixtureJson } from '../../../test/helpers/upstream-fixtures.js';
import type { Provider } from '../provider.js';
import { createGeminiProvider } from './index.js';

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** What the throwaway upstream answers next; each test sets it. */
let answer: (response: ServerResponse) => void = () => {};
const seen: Seen[] = [];
const server = createServer((request, response) => {
  let text = '';
  request.setEncoding('utf8');
  request.on('data', (piece: string) => (text += piece));
  request.on('end', () => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: JSON.parse(text) as Record<string, unknown> });
    answer(response);
  });
});

const replay = (fixture: string) => (response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const line of fixtureChunks(fixture)) response.write(`data: ${line}\r\n\r\n`);
  response.end();
};
const refuse = (status: number, body: unknown) => (response: ServerResponse) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

let provider: Provider;
const context = () => ({ upstreamModel: 'gemini-3-pro-preview', signal: new AbortController().signal });

async function run(): Promise<{ events: StreamEvent[]; error?: unknown }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of provider.stream(modelRequest([userSays('How many r in strawberry?')], { temperature: 0.5 }), context())) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events };
}

describe('createGeminiProvider', () => {
  before(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    provider = createGeminiProvider({ id: 'google', type: 'gemini', base_url: `http://127.0.0.1:${port}`, api_key: 'test-gemini-key-0001' });
  });
  after(async () => {
    await provider.close?.();
    server.close();
    await once(server, 'close');
  });

  it('posts to streamGenerateContent with the key header and streams the recorded answer', async () => {
    answer = replay('gemini/stream-text.chunks.txt');
    const { events, error } = await run();
    assert.equal(error, undefined);
    assert.equal(provider.type, 'gemini');
    assert.equal(provider.id, 'google');
    const request = seen.at(-1);
    assert.equal(request?.method, 'POST');
    assert.equal(request?.url, '/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
    assert.equal(request?.headers['x-goog-api-key'], 'test-gemini-key-0001');
    assert.match(String(request?.headers['content-type']), /^application\/json/);
    assert.deepEqual(request?.body, {
      contents: [{ role: 'user', parts: [{ text: 'How many r in strawberry?' }] }],
      generationConfig: { temperature: 0.5 },
    });
    assert.deepEqual(events[0], { type: 'start', id: 'bH6LaZW8Fp_3nsEPqtaSwQ4' });
    assert.equal(
      events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join(''),
      'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
    );
    assert.deepEqual(events.slice(-2), [
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage: { inputTokens: 9, cachedInputTokens: 0, outputTokens: 208, reasoningTokens: 185 } },
    ]);
  });

  it('throws a 400 before yielding anything, keeping the upstream message', async () => {
    answer = refuse(400, fixtureJson('gemini/error-invalid-argument.json'));
    const { events, error } = await run();
    assert.deepEqual(events, []);
    assert.ok(error instanceof GatewayError);
    assert.equal(error.kind, 'invalid_request');
    assert.equal(error.status, 400);
    assert.equal(error.message, 'Penalty is not enabled for models/gemini-2.5-flash');
    assert.equal(error.upstream?.providerId, 'google');
    assert.equal(error.upstream?.status, 400);
  });

  it('throws a 429 as rate_limited', async () => {
    // No recorded 429 exists; this is the documented RESOURCE_EXHAUSTED shape.
    answer = refuse(429, { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } });
    const { events, error } = await run();
    assert.deepEqual(events, []);
    assert.ok(error instanceof GatewayError);
    assert.equal(error.kind, 'rate_limited');
    assert.equal(error.upstream?.status, 429);
    assert.equal(error.message, 'Resource has been exhausted (e.g. check quota).');
  });

  it('counts tokens with the upstream countTokens on a whole generateContentRequest', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ totalTokens: 31, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 31 }] }));
    };
    const request = modelRequest([userSays('Count me')], { instructions: [{ text: 'Be brief.' }] });
    assert.equal(await provider.countTokens!(request, context()), 31);
    const sent = seen.at(-1);
    assert.equal(sent?.url, '/v1beta/models/gemini-3-pro-preview:countTokens');
    assert.equal(sent?.headers['x-goog-api-key'], 'test-gemini-key-0001');
    assert.deepEqual(sent?.body, {
      generateContentRequest: {
        model: 'models/gemini-3-pro-preview',
        contents: [{ role: 'user', parts: [{ text: 'Count me' }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
      },
    });
  });
});
