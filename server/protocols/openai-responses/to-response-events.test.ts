import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accumulateResponse } from 'openai/lib/responses/ResponseAccumulator';
import { assertMatchesSchema } from '../../../test/helpers/contract-schemas.js';
import { collectStream } from '../../core/collect-stream.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { renderResponse, type ResponseEcho, type ResponsesResponse } from './render-response.js';
import { toResponseEvents, type ResponsesStreamEvent } from './to-response-events.js';

const echo: ResponseEcho = {
  model: 'test-model',
  instructions: null,
  previous_response_id: null,
  store: true,
  temperature: 0.5,
  top_p: null,
  max_output_tokens: null,
  tool_choice: 'auto',
  tools: [],
  text: { format: { type: 'text' } },
  reasoning: null,
  parallel_tool_calls: true,
  metadata: {},
  truncation: 'disabled',
  user: null,
};
const options = { id: 'resp_stream', createdAt: 1_700_000_000 };
const usage = { inputTokens: 10, cachedInputTokens: 0, outputTokens: 7, reasoningTokens: 0 };

async function* source(events: StreamEvent[], failure?: Error): AsyncGenerator<StreamEvent> {
  for (const event of events) yield event;
  if (failure) throw failure;
}

/**
 * Runs the converter and checks what every stream must satisfy: each event matches the spec, numbers count
 * from 0 without gaps, the SDK's accumulator takes every event, and the final response holds the items the
 * events built, with the same IDs.
 */
async function run(events: StreamEvent[], failure?: Error): Promise<{ events: ResponsesStreamEvent[]; final: ResponsesResponse }> {
  const emitted = await validEvents(events, failure);
  assert.deepEqual(emitted.map((event) => event.sequence_number), emitted.map((_, index) => index));

  let snapshot: ReturnType<typeof accumulateResponse> | undefined;
  for (const event of emitted.slice(0, -1)) snapshot = accumulateResponse(event as never, snapshot);
  const terminal = emitted.at(-1);
  assert.ok(terminal && 'response' in terminal, 'the stream ends with a lifecycle event');
  const final = terminal.response;
  if (final.status !== 'failed') assert.deepEqual(snapshot?.output, final.output, 'the events build the final output');

  const added = emitted.flatMap((event) => (event.type === 'response.output_item.added' ? [event] : []));
  assert.deepEqual(added.map((event) => event.output_index), added.map((_, index) => index));
  assert.deepEqual(final.output.map((item) => item.id), added.map((event) => event.item.id));
  return { events: emitted, final };
}

/** Every event, each checked against the spec. */
async function validEvents(events: StreamEvent[], failure?: Error): Promise<ResponsesStreamEvent[]> {
  const emitted: ResponsesStreamEvent[] = [];
  for await (const event of toResponseEvents(source(events, failure), echo, options)) {
    assertMatchesSchema('ResponsesStreamEvent', event);
    if ('response' in event) assertMatchesSchema('ResponsesResponse', event.response);
    emitted.push(event);
  }
  return emitted;
}

const types = (events: ResponsesStreamEvent[]) => events.map((event) => event.type);

/** The final response minus what differs by design between two renders: item IDs and completion time. */
function comparable(response: ResponsesResponse) {
  return { ...response, completed_at: null, output: response.output.map((item) => ({ ...item, id: undefined })) };
}

describe('toResponseEvents', () => {
  it('streams text in the documented order and ends with the whole response', async () => {
    const input: StreamEvent[] = [
      { type: 'start', id: 'upstream-1' },
      { type: 'text_delta', text: 'Hello' },
      { type: 'text_delta', text: ', world' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', usage },
    ];
    const { events, final } = await run(input);
    assert.deepEqual(types(events), [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const [created, inProgress, added, partAdded, delta] = events;
    assert.ok(created.type === 'response.created' && inProgress.type === 'response.in_progress');
    assert.equal(created.response.status, 'in_progress');
    assert.deepEqual(created.response.output, []);
    assert.equal(created.response.usage, null);
    assert.ok(added.type === 'response.output_item.added' && added.item.type === 'message');
    assert.deepEqual(added.item.content, []);
    assert.equal(added.item.status, 'in_progress');
    assert.ok(partAdded.type === 'response.content_part.added');
    assert.deepEqual(partAdded.part, { type: 'output_text', text: '', annotations: [], logprobs: [] });
    assert.ok(delta.type === 'response.output_text.delta');
    assert.deepEqual({ ...delta, sequence_number: 0 }, {
      type: 'response.output_text.delta', item_id: added.item.id, output_index: 0, content_index: 0, delta: 'Hello', logprobs: [], sequence_number: 0,
    });
    const textDone = events[6];
    assert.ok(textDone.type === 'response.output_text.done');
    assert.equal(textDone.text, 'Hello, world');

    assert.equal(final.id, 'resp_stream');
    assert.equal(final.status, 'completed');
    assert.equal(final.usage?.total_tokens, 17);
    assert.deepEqual(comparable(final), comparable(renderResponse(await collectStream(source(input)), echo, options)));
  });

  it('streams two tool calls one item after the other', async () => {
    const input: StreamEvent[] = [
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'get_time', signature: 'sig-b' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'tool_call_end', index: 1 },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage },
    ];
    const { events, final } = await run(input);
    const perCall = ['response.output_item.added', 'response.function_call_arguments.delta'];
    assert.deepEqual(types(events), [
      'response.created',
      'response.in_progress',
      ...perCall,
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      ...perCall,
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const [first, second] = final.output;
    assert.ok(first.type === 'function_call' && second.type === 'function_call');
    assert.equal(first.call_id, 'call_a');
    assert.equal(first.arguments, '{"city":"Paris"}');
    assert.match(second.call_id, /^call_b__ts_/);
    const argumentEvents = events.filter((event) => event.type.startsWith('response.function_call_arguments.'));
    assert.deepEqual(
      argumentEvents.map((event) => 'item_id' in event && event.item_id),
      [first.id, first.id, first.id, second.id, second.id],
      'argument events name the fc_ item, not the call_id',
    );
    const added = events[2];
    assert.ok(added.type === 'response.output_item.added' && added.item.type === 'function_call');
    assert.equal(added.item.arguments, '');
    assert.deepEqual(comparable(final), comparable(renderResponse(await collectStream(source(input)), echo, options)));
  });

  it('streams reasoning as a summary, then the text', async () => {
    const input: StreamEvent[] = [
      { type: 'reasoning_delta', text: 'Think' },
      { type: 'reasoning_delta', text: 'ing.' },
      { type: 'reasoning_delta', text: '', signature: 'anthropic-sig' },
      { type: 'text_delta', text: 'Answer.' },
      { type: 'finish', reason: 'stop' },
    ];
    const { events, final } = await run(input);
    assert.deepEqual(types(events), [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const [reasoning, message] = final.output;
    assert.ok(reasoning.type === 'reasoning' && message.type === 'message');
    assert.deepEqual(reasoning.summary, [{ type: 'summary_text', text: 'Thinking.' }]);
    assert.deepEqual(message.content, [{ type: 'output_text', text: 'Answer.', annotations: [], logprobs: [] }]);
    assert.deepEqual(comparable(final), comparable(renderResponse(await collectStream(source(input)), echo, options)));
  });

  it('ends a length stop with response.incomplete and the last item incomplete', async () => {
    const { events, final } = await run([{ type: 'text_delta', text: 'Once upon' }, { type: 'finish', reason: 'length' }]);
    assert.equal(events.at(-1)?.type, 'response.incomplete');
    assert.equal(final.status, 'incomplete');
    assert.deepEqual(final.incomplete_details, { reason: 'max_output_tokens' });
    const done = events.at(-2);
    assert.ok(done?.type === 'response.output_item.done' && done.item.type === 'message');
    assert.equal(done.item.status, 'incomplete');
  });

  it('turns a failure mid-stream into an error event and response.failed, without throwing', async () => {
    const failure = new GatewayError('upstream', 'The upstream provider failed.');
    const { events, final } = await run([{ type: 'text_delta', text: 'Partial' }], failure);
    assert.deepEqual(types(events).slice(-4), ['response.content_part.added', 'response.output_text.delta', 'error', 'response.failed']);
    const error = events.at(-2);
    assert.ok(error?.type === 'error');
    assert.deepEqual({ ...error, sequence_number: 0 }, {
      type: 'error',
      code: 'upstream_error',
      message: 'The upstream provider failed.',
      param: null,
      error: { type: 'upstream_error', code: 'upstream_error', message: 'The upstream provider failed.', param: null },
      sequence_number: 0,
    });
    assert.equal(final.status, 'failed');
    // The error event keeps the gateway's code; the failed response carries OpenAI's for a failure past the client.
    assert.deepEqual(final.error, { code: 'server_error', message: 'The upstream provider failed.' });
    assert.equal(final.usage, null);
    const [message] = final.output;
    assert.ok(message.type === 'message');
    assert.equal(message.status, 'incomplete');
    assert.deepEqual(message.content, [{ type: 'output_text', text: 'Partial', annotations: [], logprobs: [] }]);
  });

  it('hides the details of an unexpected error', async () => {
    const { events, final } = await run([], new Error('secret stack detail'));
    assert.deepEqual(types(events), ['response.created', 'response.in_progress', 'error', 'response.failed']);
    assert.deepEqual(final.error, { code: 'server_error', message: 'Internal server error.' });
    assert.deepEqual(final.output, []);
  });

  it('keeps arguments of a call that arrive after its item closed in the final response', async () => {
    // Events cannot carry them (the item is done), so this is the one case where they and the final response differ.
    const events = await validEvents([
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'a' },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'b' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"late":true}' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    const terminal = events.at(-1);
    assert.ok(terminal?.type === 'response.completed');
    const [first] = terminal.response.output;
    assert.ok(first.type === 'function_call');
    assert.equal(first.arguments, '{"late":true}');
    assert.equal(events.filter((event) => event.type === 'response.function_call_arguments.delta').length, 1);
  });
});
