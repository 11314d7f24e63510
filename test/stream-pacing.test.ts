// Streams are forwarded chunk by chunk as they arrive: an upstream that sends its next chunk only once the
// client has seen the previous one finishes only if the gateway buffers nothing, on every client protocol
// (the OpenAI pass-through and the translations to Anthropic Messages, Responses and Gemini).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

const words = ['one', 'two', 'three', 'four'];
/** How long the upstream waits for the client to see a word before calling the stream buffered. */
const gateTimeoutMs = 5_000;

/** Resolves the word the client has just seen; the upstream waits on it before writing the next. */
let clientSaw: (word: string) => void = () => {};
let upstream: Server;
let gateway: TestGateway;

before(async () => {
  upstream = createServer((req, res) => void pacedStream(res));
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const { port } = upstream.address() as AddressInfo;
  gateway = await startGateway({
    config: configSchema.parse({
      providers: [{ id: 'paced', type: 'openai', base_url: `http://127.0.0.1:${port}/v1`, api_key: 'upstream-secret' }],
      models: [{ id: 'paced-chat', provider: 'paced', upstream_model: 'paced', capabilities: ['chat', 'streaming'] }],
      routing: { max_attempts: 1 },
    }),
  });
});
after(async () => {
  await gateway.close();
  upstream.closeAllConnections();
  upstream.close();
});

/** An OpenAI chat stream that writes one word, then waits until the client has seen it. */
async function pacedStream(res: import('node:http').ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-paced', object: 'chat.completion.chunk', created: 1, model: 'paced', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  for (const [index, word] of words.entries()) {
    const seen = new Promise<string>((resolve) => (clientSaw = resolve));
    res.write(chunk(index === 0 ? { role: 'assistant', content: `${word} ` } : { content: `${word} ` }, null));
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), gateTimeoutMs).unref());
    if ((await Promise.race([seen, timeout])) === 'timeout') {
      // The gateway held the word back: end the stream so the test fails on what the client saw.
      res.end();
      return;
    }
  }
  res.end(`${chunk({}, 'stop')}data: {"id":"chatcmpl-paced","object":"chat.completion.chunk","created":1,"model":"paced","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}\n\ndata: [DONE]\n\n`);
}

/** Feeds each text delta to the gate as it arrives and returns the whole text. */
async function readPaced(deltas: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const delta of deltas) {
    text += delta;
    for (const word of words) if (text.includes(`${word} `)) clientSaw(word);
  }
  return text;
}

const expected = 'one two three four ';

test('OpenAI chat (pass-through): each chunk reaches the client before the upstream sends the next', async () => {
  const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
  const stream = await openai.chat.completions.create({ model: 'paced-chat', stream: true, messages: [{ role: 'user', content: 'count' }] });
  const text = await readPaced((async function* () {
    for await (const chunk of stream) yield chunk.choices[0]?.delta.content ?? '';
  })());
  assert.equal(text, expected);
});

test('Anthropic Messages (translated): each chunk reaches the client before the upstream sends the next', async () => {
  const anthropic = new Anthropic({ apiKey: gateway.apiKey, baseURL: gateway.origin, maxRetries: 0 });
  const stream = await anthropic.messages.create({ model: 'paced-chat', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'count' }] });
  const text = await readPaced((async function* () {
    for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield event.delta.text;
  })());
  assert.equal(text, expected);
});

test('Responses API (translated): each chunk reaches the client before the upstream sends the next', async () => {
  const openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
  const stream = await openai.responses.create({ model: 'paced-chat', stream: true, input: 'count', store: false });
  const text = await readPaced((async function* () {
    for await (const event of stream) if (event.type === 'response.output_text.delta') yield event.delta;
  })());
  assert.equal(text, expected);
});

test('Gemini streamGenerateContent (translated): each chunk reaches the client before the upstream sends the next', async () => {
  const gemini = new GoogleGenAI({ apiKey: gateway.apiKey, httpOptions: { baseUrl: gateway.origin } });
  const stream = await gemini.models.generateContentStream({ model: 'paced-chat', contents: 'count' });
  const text = await readPaced((async function* () {
    for await (const chunk of stream) yield chunk.text ?? '';
  })());
  assert.equal(text, expected);
});
