import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectStream } from '../../core/collect-stream.js';
import { countRequestTokens, countTextTokens } from '../../core/token-counter.js';
import type { Message, ModelRequest, StreamEvent } from '../../core/internal-representation.js';
import { modelRequest, userSays } from '../../../test/helpers/model-request-fixtures.js';
import { createBuiltinProvider } from './index.js';

const request = (messages: Message[], extra: Partial<ModelRequest> = {}) =>
  modelRequest(messages, { instructions: [{ text: 'Be helpful.' }], ...extra });
const say = userSays;
const context = (signal = new AbortController().signal) => ({ upstreamModel: 'builtin-echo', signal });
const weather = {
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] } } },
};

async function events(input: ModelRequest, chunkDelayMs = 0): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of createBuiltinProvider({ chunkDelayMs }).stream(input, context())) collected.push(event);
  return collected;
}

describe('builtin provider', () => {
  it('has type builtin', () => {
    assert.equal(createBuiltinProvider().type, 'builtin');
  });

  it('streams start, word chunks, finish and usage in order', async () => {
    const input = request([say('Hello there, general')]);
    const stream = await events(input);
    assert.equal(stream[0]?.type, 'start');
    assert.match(stream[0]?.type === 'start' ? stream[0].id ?? '' : '', /^chatcmpl-/);
    const deltas = stream.slice(1, -2).map((event) => (event.type === 'text_delta' ? event.text : assert.fail(event.type)));
    assert.deepEqual(deltas, ['You', ' said:', ' Hello', ' there,', ' general']);
    assert.deepEqual(stream.at(-2), { type: 'finish', reason: 'stop' });
    const text = 'You said: Hello there, general';
    assert.deepEqual(stream.at(-1), {
      type: 'usage',
      usage: { inputTokens: countRequestTokens(input), cachedInputTokens: 0, outputTokens: countTextTokens(text), reasoningTokens: 0 },
    });
  });

  it('streams a tool call as start, 2–4 argument deltas, end', async () => {
    const stream = await events(request([say('Lyon')], { tools: [weather] }));
    const types = stream.map((event) => event.type);
    assert.equal(types[1], 'tool_call_start');
    const deltaCount = types.filter((type) => type === 'tool_call_delta').length;
    assert.ok(deltaCount >= 2 && deltaCount <= 4, `${deltaCount} deltas`);
    assert.deepEqual(types.slice(-3), ['tool_call_end', 'finish', 'usage']);
    const start = stream[1];
    assert.ok(start?.type === 'tool_call_start' && start.index === 0 && start.name === 'get_weather');
    assert.match(start.id, /^call_[A-Za-z0-9]{24}$/);
  });

  it('collects into a ModelResponse consistent with the stream', async () => {
    const provider = createBuiltinProvider();
    const input = request([say('Lyon')], { tools: [weather] });
    const stream = await events(input);
    const response = await collectStream(provider.stream(input, context()));
    const usage = stream.at(-1);
    const id = stream[1]?.type === 'tool_call_start' ? stream[1].id : '';
    assert.deepEqual(response.content, [
      { type: 'tool_call', id, name: 'get_weather', arguments: '{"city":"Lyon","unit":"c"}' },
    ]);
    assert.equal(response.finishReason, 'tool_calls');
    assert.deepEqual(response.usage, usage?.type === 'usage' ? usage.usage : undefined);
    assert.match(response.id ?? '', /^chatcmpl-/);

    const stopped = await collectStream(provider.stream(request([say('a. b')], { stopSequences: ['.'] }), context()));
    assert.deepEqual(stopped.content, [{ type: 'text', text: 'You said: a' }]);
    assert.equal(stopped.finishReason, 'stop_sequence');
    assert.equal(stopped.stopSequence, '.');
  });

  it('gives the same text and tool calls for the same request', async () => {
    const strip = (list: StreamEvent[]) => list.filter((event) => event.type !== 'start');
    const input = request([say('repeat me')], { tools: [weather] });
    assert.deepEqual(strip(await events(input)), strip(await events(structuredClone(input))));
  });

  it('interleaves concurrent streams instead of running each to the end', async () => {
    const order: string[] = [];
    const drain = async (name: string) => {
      for await (const event of createBuiltinProvider().stream(request([say('a b c d e f')]), context())) {
        if (event.type === 'text_delta') order.push(name);
      }
    };
    await Promise.all([drain('x'), drain('y')]);
    assert.notDeepEqual(order, [...order].sort());
  });

  it('throws the signal reason when aborted before streaming', async () => {
    const controller = new AbortController();
    const reason = new Error('client left');
    controller.abort(reason);
    const stream = createBuiltinProvider().stream(request([say('hi')]), context(controller.signal));
    await assert.rejects(collectStream(stream), (error) => error === reason);
  });

  it('stops promptly mid-stream, throws the reason and leaves no timer running', async () => {
    const controller = new AbortController();
    const provider = createBuiltinProvider({ chunkDelayMs: 5_000 });
    const timersBefore = process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length;
    const seen: StreamEvent[] = [];
    const started = Date.now();
    const consume = (async () => {
      for await (const event of provider.stream(request([say('a long answer')]), context(controller.signal))) seen.push(event);
    })();
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(consume, (error) => error instanceof DOMException && error.name === 'AbortError');
    assert.ok(Date.now() - started < 1_000, 'stopped promptly');
    assert.deepEqual(seen.map((event) => event.type), ['start']);
    const timersAfter = process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length;
    assert.ok(timersAfter <= timersBefore, `timers ${timersBefore} → ${timersAfter}`);
  });

  it('stops between chunks when aborted while streaming without delay', async () => {
    const controller = new AbortController();
    const reason = new Error('timeout');
    const seen: string[] = [];
    const consume = (async () => {
      for await (const event of createBuiltinProvider().stream(request([say('one two three four')]), context(controller.signal))) {
        seen.push(event.type);
        if (seen.length === 3) controller.abort(reason);
      }
    })();
    await assert.rejects(consume, (error) => error === reason);
    assert.deepEqual(seen, ['start', 'text_delta', 'text_delta']);
  });
});
