import assert from 'node:assert/strict';
import type { components } from '../../generated/api.js';
import { assertMatchesSchema } from './contract-schemas.js';
import { parseNamedSse, type NamedFrame } from './named-sse.js';

export type AnthropicStreamEvent = components['schemas']['AnthropicStreamEvent'];

export type AnthropicFrame = NamedFrame<AnthropicStreamEvent>;

/** Splits a body into frames; see {@link parseNamedSse}. */
export function parseAnthropicSse(text: string): AnthropicFrame[] {
  return parseNamedSse<AnthropicStreamEvent>(text);
}

/**
 * Checks what every Messages stream the gateway sends must satisfy (PROTOCOLS.md "Anthropic"): each event
 * matches the spec's `AnthropicStreamEvent`, its `event:` line repeats its `type`, `message_start` comes
 * first, and the stream ends with `message_stop` after a `message_delta`, or with one `error` event.
 * Blocks open, take deltas and close in order, each delta of a kind that fits its block. Returns the events.
 */
export function assertAnthropicStream(frames: readonly AnthropicFrame[]): AnthropicStreamEvent[] {
  const events = frames.map(({ event, data }, index) => {
    assertMatchesSchema('AnthropicStreamEvent', data);
    assert.equal(event, data.type, `the event: line of frame ${index} repeats its type`);
    return data;
  });
  assert.equal(events[0]?.type, 'message_start', 'message_start comes first');
  const last = events.at(-1)!;
  if (last.type === 'error') {
    assert.equal(events.filter((event) => event.type === 'error').length, 1, 'one error event, last');
  } else {
    assert.equal(last.type, 'message_stop', 'message_stop comes last');
    assert.equal(events.at(-2)?.type, 'message_delta', 'message_delta comes right before message_stop');
  }

  const kinds = new Map<number, string>();
  const closed = new Set<number>();
  for (const event of events) {
    if (event.type === 'content_block_start') {
      assert.ok(!kinds.has(event.index), `block ${event.index} starts once`);
      assert.equal(event.index, kinds.size, 'blocks are numbered from 0 in order');
      kinds.set(event.index, event.content_block.type);
    } else if (event.type === 'content_block_delta') {
      const kind = kinds.get(event.index);
      assert.ok(kind !== undefined && !closed.has(event.index), `a delta for open block ${event.index}`);
      const fits: Record<string, string[]> = {
        text: ['text_delta', 'citations_delta'],
        tool_use: ['input_json_delta'],
        thinking: ['thinking_delta', 'signature_delta'],
      };
      assert.ok(fits[kind]?.includes(event.delta.type), `${event.delta.type} in a ${kind} block`);
    } else if (event.type === 'content_block_stop') {
      assert.ok(kinds.has(event.index) && !closed.has(event.index), `block ${event.index} stops once, after it started`);
      closed.add(event.index);
    }
  }
  if (last.type !== 'error') assert.equal(closed.size, kinds.size, 'every block is closed');
  return events;
}

/**
 * A `fetch` for SDK clients that passes every response through unchanged while keeping a copy of each
 * event-stream body, so a test that streams through an SDK can still check the raw frames.
 *
 * @example
 * const wire = recordAnthropicStreams();
 * const client = new Anthropic({ apiKey, baseURL, fetch: wire.fetch });
 * await client.messages.stream({ model, max_tokens: 100, messages }).finalMessage();
 * const [events] = await wire.checked(); // one stream, every frame checked by assertAnthropicStream
 */
export function recordAnthropicStreams(): { fetch: typeof fetch; checked(): Promise<AnthropicStreamEvent[][]> } {
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
      return texts.map((text) => assertAnthropicStream(parseAnthropicSse(text)));
    },
  };
}
