// Raw Responses streams, frame by frame, on every upstream type: each event against `ResponsesStreamEvent`,
// its `event:` line, its sequence number and PROTOCOLS.md's ordering rules (assertResponsesStream), then the
// content the upstream's recording holds. Covers a text answer, tool calls, reasoning and failures mid-stream.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ProviderType } from '../server/config/config-schema.js';
import type { FakeReply } from './helpers/fake-upstream.js';
import { assertResponsesStream, parseResponsesSse, terminalResponse, type ResponsesStreamEvent } from './helpers/responses-stream.js';
import { startGateway } from './helpers/start-gateway.js';
import { fixtureChunks, fixtureSseEvents } from './helpers/upstream-fixtures.js';
import { startUpstreamGateway } from './helpers/upstream-gateway.js';

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** POSTs a streaming /v1/responses and returns its events, each already checked. */
async function streamEvents(origin: string, apiKey: string, body: object): Promise<ResponsesStreamEvent[]> {
  const response = await fetch(`${origin}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ stream: true, ...body }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  return assertResponsesStream(parseResponsesSse(await response.text()));
}

/** One upstream reply (or several, for a retry) through a fresh gateway whose `test-model` is that upstream. */
async function throughUpstream(type: ProviderType, replies: FakeReply[], body: object = {}): Promise<ResponsesStreamEvent[]> {
  const setup = await startUpstreamGateway(type);
  try {
    setup.upstream.enqueue(...replies);
    return await streamEvents(setup.gateway.origin, setup.gateway.apiKey, { model: 'test-model', input: 'Hello', ...body });
  } finally {
    await setup.close();
  }
}

const calls = (events: ResponsesStreamEvent[]) =>
  terminalResponse(events).output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, args: JSON.parse(item.arguments) as unknown }] : []));
const texts = (events: ResponsesStreamEvent[]) =>
  terminalResponse(events).output.flatMap((item) => (item.type === 'message' ? item.content.map((part) => (part.type === 'output_text' ? part.text : part.refusal)) : []));
const reasoning = (events: ResponsesStreamEvent[]) =>
  terminalResponse(events).output.flatMap((item) => (item.type === 'reasoning' ? item.summary.map((part) => part.text) : []));

const openaiText = fixtureChunks('openai-chat/stream-text-include-usage.chunks.txt')
  .map((line) => (JSON.parse(line) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
  .join('');
const anthropicText = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";
const geminiText = 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y';

describe('a text answer', () => {
  const cases = [
    { type: 'openai', fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat', text: openaiText, usage: [16, 300] },
    { type: 'openai-compatible', fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat', text: openaiText, usage: [16, 300] },
    { type: 'anthropic', fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages', text: anthropicText, usage: [12, 30] },
    { type: 'gemini', fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini', text: geminiText, usage: [9, 208] },
  ] as const;
  for (const { type, fixture, protocol, text, usage } of cases) {
    test(type, async () => {
      const events = await throughUpstream(type, [{ fixture, protocol }]);
      const final = terminalResponse(events);
      assert.equal(final.status, 'completed');
      assert.deepEqual(texts(events), [text]);
      assert.deepEqual([final.usage?.input_tokens, final.usage?.output_tokens], usage);
    });
  }

  test('builtin', async () => {
    const gateway = await startGateway();
    try {
      const events = await streamEvents(gateway.origin, gateway.apiKey, { model: 'builtin/echo', input: 'one two three' });
      assert.equal(terminalResponse(events).status, 'completed');
      assert.deepEqual(texts(events), ['You said: one two three']);
    } finally {
      await gateway.close();
    }
  });
});

describe('a tool-call answer', () => {
  const cases = [
    { type: 'openai', fixture: 'openai-chat/stream-tool-call-include-usage.chunks.txt', protocol: 'openai-chat', calls: [{ name: 'multiply', args: { a: 1231, b: 2331 } }] },
    {
      type: 'openai-compatible',
      fixture: 'openai-chat/stream-parallel-tool-calls.chunks.txt',
      protocol: 'openai-chat',
      calls: [{ name: 'get_weather', args: { city: 'Paris' } }, { name: 'get_time', args: { timezone: 'Europe/Paris' } }],
    },
    {
      type: 'anthropic',
      fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt',
      protocol: 'anthropic-messages',
      calls: [{ name: 'weather', args: { location: 'San Francisco' } }],
    },
    {
      type: 'gemini',
      fixture: 'gemini/stream-two-function-calls.chunks.txt',
      protocol: 'gemini',
      calls: [{ name: 'get_weather', args: { city: 'Paris' } }, { name: 'get_time', args: { timezone: 'Europe/Paris' } }],
    },
  ] as const;
  for (const { type, fixture, protocol, calls: expected } of cases) {
    test(type, async () => {
      const events = await throughUpstream(type, [{ fixture, protocol }], { tools: [weatherTool] });
      assert.equal(terminalResponse(events).status, 'completed');
      assert.deepEqual(calls(events), expected);
      // Each call's arguments stream as deltas between its added and done events.
      for (const item of terminalResponse(events).output) {
        const deltas = events.flatMap((event) => (event.type === 'response.function_call_arguments.delta' && event.item_id === item.id ? [event.delta] : []));
        if (item.type === 'function_call') assert.equal(deltas.join(''), item.arguments);
      }
    });
  }

  test('anthropic: text, then a call', async () => {
    const events = await throughUpstream('anthropic', [{ fixture: 'anthropic-messages/stream-text-then-tool-use.chunks.txt', protocol: 'anthropic-messages' }], {
      tools: [weatherTool],
    });
    assert.deepEqual(terminalResponse(events).output.map((item) => item.type), ['message', 'function_call']);
    assert.deepEqual(texts(events), ["I'll invoke the JSON response tool."]);
    assert.equal(calls(events).length, 1);
  });
});

describe('a reasoning answer', () => {
  test('anthropic thinking becomes a reasoning item with a summary, then the text', async () => {
    const events = await throughUpstream('anthropic', [{ fixture: 'anthropic-messages/stream-thinking.chunks.txt', protocol: 'anthropic-messages' }]);
    const final = terminalResponse(events);
    assert.deepEqual(final.output.map((item) => item.type), ['reasoning', 'message']);
    assert.deepEqual(reasoning(events), ['The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185']);
    assert.deepEqual(texts(events), ['925 ÷ 5 = 185']);
    assert.deepEqual(
      events.filter((event) => event.type.startsWith('response.reasoning_summary_')).map((event) => event.type).filter((type, index, all) => type !== all[index - 1]),
      ['response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done'],
    );
  });

  test('openai-compatible reasoning_content', async () => {
    const events = await throughUpstream('openai-compatible', [{ fixture: 'openai-chat/stream-reasoning-content.chunks.txt', protocol: 'openai-chat' }]);
    assert.deepEqual(terminalResponse(events).output.map((item) => item.type), ['reasoning', 'message']);
    assert.ok(reasoning(events)[0]!.length > 0);
    assert.ok(texts(events)[0]!.length > 0);
  });
});

describe('a failure mid-stream: error, then response.failed with the partial answer', () => {
  /** The first `count` events of a recording, then the end of the body: the upstream died mid-answer. */
  const cut = (fixture: string, protocol: 'openai-chat' | 'gemini', count: number): FakeReply => ({ sse: fixtureSseEvents(fixture, protocol).slice(0, count) });
  // Anthropic's in-band `error` event after the first words. Before any content the gateway retries instead.
  const overloaded = fixtureSseEvents('anthropic-messages/stream-overloaded-error.chunks.txt', 'anthropic-messages').at(-1)!;
  const anthropicPartial = [...fixtureSseEvents('anthropic-messages/stream-text.chunks.txt', 'anthropic-messages').slice(0, 5), overloaded];

  const cases = [
    { type: 'anthropic', reply: { sse: anthropicPartial } },
    { type: 'openai', reply: cut('openai-chat/stream-text-include-usage.chunks.txt', 'openai-chat', 6) },
    { type: 'openai-compatible', reply: cut('openai-chat/stream-tool-call-include-usage.chunks.txt', 'openai-chat', 4) },
    { type: 'gemini', reply: cut('gemini/stream-text.chunks.txt', 'gemini', 1) },
  ] as const;
  for (const { type, reply } of cases) {
    test(type, async () => {
      const events = await throughUpstream(type, [reply], { tools: [weatherTool] });
      const final = terminalResponse(events);
      assert.equal(final.status, 'failed');
      const error = events.at(-2);
      assert.ok(error?.type === 'error');
      assert.equal(typeof error.error.type, 'string');
      assert.ok(error.error.message.length > 0);
      // The response's code is one of OpenAI's (server_error, for a failure past the client); the error event keeps the gateway's own.
      assert.deepEqual(final.error, { code: 'server_error', message: error.error.message });
      assert.notEqual(error.error.code, null);
      if (type === 'anthropic') {
        assert.deepEqual(texts(events), ['Hello! I']);
        assert.match(error.error.message, /Overloaded/, "the upstream's own message is passed on");
      }
      if (type === 'openai') assert.ok(openaiText.startsWith(texts(events)[0]!) && texts(events)[0]!.length > 0, 'the partial text is kept');
      if (type === 'gemini') assert.deepEqual(texts(events), ['There are **3**']);
    });
  }
});
