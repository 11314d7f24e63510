import assert from 'node:assert/strict';
import type { components } from '../../generated/api.js';
import { assertMatchesSchema } from './contract-schemas.js';
import { parseNamedSse, type NamedFrame } from './named-sse.js';
import { assertMatchesPublishedSchema } from './openai-spec/published-validator.js';

type Schemas = components['schemas'];
export type ResponsesStreamEvent = Schemas['ResponsesStreamEvent'];
export type ResponsesResponse = Schemas['ResponsesResponse'];

export type ResponsesFrame = NamedFrame<ResponsesStreamEvent>;

/** Splits a body into frames; see {@link parseNamedSse}. */
export function parseResponsesSse(text: string): ResponsesFrame[] {
  return parseNamedSse<ResponsesStreamEvent>(text);
}

/**
 * Checks what every Responses stream the gateway sends must satisfy (PROTOCOLS.md "Responses"): every event
 * matches `ResponsesStreamEvent` (and its snapshot `ResponsesResponse`) and OpenAI's published
 * `ResponseStreamEvent`, the `event:` line repeats `type`,
 * `sequence_number` counts from 0 without gaps, `response.created` and `response.in_progress` come first and
 * exactly one terminal event comes last, an `error` event carries both OpenAI's nested form and the
 * documented flat one, and the terminal response holds the items the events opened, with the same IDs and
 * the text the deltas spelled. Returns the events.
 *
 * @example
 * const events = assertResponsesStream(parseResponsesSse(await response.text()));
 * assert.equal(terminalResponse(events).status, 'completed');
 */
export function assertResponsesStream(frames: readonly ResponsesFrame[]): ResponsesStreamEvent[] {
  const events = frames.map(({ event, data }, index) => {
    assertMatchesSchema('ResponsesStreamEvent', data);
    if ('response' in data) assertMatchesSchema('ResponsesResponse', data.response);
    assertMatchesPublishedSchema('ResponseStreamEvent', data);
    assert.equal(event, data.type, `the event: line of frame ${index} repeats its type`);
    assert.equal(data.sequence_number, index, `sequence_number of frame ${index} (${data.type})`);
    return data;
  });
  assert.deepEqual(events.slice(0, 2).map((event) => event.type), ['response.created', 'response.in_progress']);
  const terminals = events.flatMap((event, index) => (isTerminal(event) ? [index] : []));
  assert.deepEqual(terminals, [events.length - 1], 'one terminal event, and it comes last');

  const errors = events.filter((event) => event.type === 'error');
  for (const error of errors) {
    const { code, message, param } = error.error;
    assert.deepEqual({ code: error.code, message: error.message, param: error.param }, { code, message, param }, 'flat and nested error agree');
  }
  const final = terminalResponse(events);
  assert.equal(errors.length, final.status === 'failed' ? 1 : 0, 'an error event comes with response.failed and only then');
  if (errors.length) assert.equal(events.at(-2)?.type, 'error', 'response.failed follows the error event');

  const added = events.flatMap((event) => (event.type === 'response.output_item.added' ? [event] : []));
  assert.deepEqual(added.map((event) => event.output_index), added.map((_, index) => index));
  assert.deepEqual(final.output.map((item) => item.id), added.map((event) => event.item.id), 'the final output holds the streamed items');
  for (const item of final.output) {
    const deltas = events.flatMap((event) =>
      (event.type === 'response.output_text.delta' || event.type === 'response.reasoning_summary_text.delta') && event.item_id === item.id
        ? [event.delta]
        : [],
    );
    if (item.type === 'message') assert.equal(item.content.map((part) => (part.type === 'output_text' ? part.text : '')).join(''), deltas.join(''));
    if (item.type === 'reasoning') assert.equal(item.summary.map((part) => part.text).join(''), deltas.join(''));
  }
  return events;
}

/** The response of the terminal event. */
export function terminalResponse(events: readonly ResponsesStreamEvent[]): ResponsesResponse {
  const last = events.at(-1);
  assert.ok(last && isTerminal(last), `the stream ends with a terminal event, not ${last?.type}`);
  return last.response;
}

function isTerminal(event: ResponsesStreamEvent): event is Extract<ResponsesStreamEvent, { response: unknown }> {
  return event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed';
}

/**
 * A `fetch` for SDK clients that passes every response through unchanged while keeping a copy of each
 * event-stream body, so a test that streams through an SDK can still check the raw frames.
 *
 * @example
 * const wire = recordResponsesStreams();
 * const client = new OpenAI({ apiKey, baseURL, fetch: wire.fetch });
 * await client.responses.stream({ model, input: 'Hi' }).finalResponse();
 * const [events] = await wire.checked(); // one stream, every frame checked by assertResponsesStream
 */
export function recordResponsesStreams(): { fetch: typeof fetch; checked(): Promise<ResponsesStreamEvent[][]> } {
  const bodies: Promise<string>[] = [];
  return {
    async fetch(input, init) {
      const response = await fetch(input, init);
      if (!response.body || !/^text\/event-stream/.test(response.headers.get('content-type') ?? '')) return response;
      const [copy, passed] = response.body.tee();
      bodies.push(new Response(copy).text());
      return new Response(passed, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
    /** Every stream recorded since the last call, each checked; waits for the bodies to end. */
    async checked() {
      const texts = await Promise.all(bodies.splice(0));
      return texts.map((text) => assertResponsesStream(parseResponsesSse(text)));
    },
  };
}
