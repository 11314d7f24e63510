// Raw Chat Completions streams, frame by frame, against the contract, OpenAI's published spec and
// PROTOCOLS.md's ordering rules.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import { assertMatchesPublishedSchema } from './helpers/openai-spec/published-validator.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
before(async () => (gateway = await startGateway()));
after(() => gateway.close());

async function streamFrames(body: object): Promise<string[]> {
  const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'builtin/echo', stream: true, ...body }),
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await response.text();
  assert.ok(text.endsWith('\n\n'), 'every frame ends with a blank line');
  return text.split('\n\n').filter(Boolean).map((frame) => {
    assert.ok(frame.startsWith('data: '), `data-only frames: ${frame}`);
    return frame.slice('data: '.length);
  });
}

test('text stream: role chunk, deltas, one finish chunk, usage chunk, [DONE]', async () => {
  const frames = await streamFrames({ messages: [{ role: 'user', content: 'one two three' }], stream_options: { include_usage: true } });
  assert.equal(frames.at(-1), '[DONE]');
  const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame));
  for (const chunk of chunks) {
    assertMatchesSchema('ChatCompletionChunk', chunk);
    assertMatchesPublishedSchema('CreateChatCompletionStreamResponse', chunk);
  }
  assert.equal(new Set(chunks.map((chunk) => chunk.id)).size, 1, 'one id for the whole stream');
  assert.equal(chunks[0].choices[0].delta.role, 'assistant');
  const usageChunk = chunks.at(-1);
  assert.deepEqual(usageChunk.choices, []);
  assert.ok(usageChunk.usage.prompt_tokens > 0);
  const finishes = chunks.filter((chunk) => chunk.choices[0]?.finish_reason);
  assert.equal(finishes.length, 1);
  assert.equal(finishes[0].choices[0].finish_reason, 'stop');
  for (const chunk of chunks.slice(0, -1)) assert.equal(chunk.usage, null, 'usage is null until the last chunk');
  const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
  assert.equal(text, 'You said: one two three');
});

test('without include_usage there is no usage chunk', async () => {
  const frames = await streamFrames({ messages: [{ role: 'user', content: 'hi' }] });
  const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame));
  assert.ok(chunks.every((chunk) => chunk.choices.length === 1 && !('usage' in chunk)));
});

test('tool-call stream: first delta has index, id, type, name; later ones only arguments', async () => {
  const frames = await streamFrames({
    messages: [{ role: 'user', content: 'Weather in Oslo' }],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
  });
  const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame));
  for (const chunk of chunks) {
    assertMatchesSchema('ChatCompletionChunk', chunk);
    assertMatchesPublishedSchema('CreateChatCompletionStreamResponse', chunk);
  }
  const calls = chunks.flatMap((chunk) => chunk.choices[0].delta.tool_calls ?? []);
  assert.ok(calls.length >= 2);
  assert.deepEqual(Object.keys(calls[0]).sort(), ['function', 'id', 'index', 'type']);
  assert.equal(calls[0].function.name, 'get_weather');
  for (const call of calls.slice(1)) assert.deepEqual(Object.keys(call).sort(), ['function', 'index']);
  assert.deepEqual(JSON.parse(calls.map((call) => call.function.arguments).join('')), { city: 'Weather in Oslo' });
  assert.equal(chunks.at(-1).choices[0].finish_reason, 'tool_calls');
});
