import { encodeToolCallId } from '../../core/tool-call-signature.js';
import type { FinishReason, StreamEvent, Usage } from '../../core/internal-representation.js';
import { mapStopReason } from './map-stop-reason.js';
import { renderMessageUsage } from './render-message.js';
import type { MessagesContentBlock, MessagesStreamEvent } from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/** The content block being streamed: Anthropic streams one block at a time, each with its own index. */
type OpenBlock = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number; call: number };

/**
 * Internal stream events → Anthropic's Messages stream (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
 * `message_start` (empty content, usage), `ping`, then per block `content_block_start`, deltas and
 * `content_block_stop`, then `message_delta` with the stop reason and the whole usage, and `message_stop`.
 *
 * Input tokens are only known at the end from translated upstreams, so `message_start` reports 0 and
 * `message_delta` the real counts; every Anthropic SDK replaces its counts with those of `message_delta`.
 * A failure of `events` is thrown on: the caller reports it as an `error` event.
 *
 * @example
 * for await (const event of toMessageEvents(answer.events, { id: newMessageId(), model: body.model })) await sse.send(event, event.type);
 */
export async function* toMessageEvents(events: AsyncIterable<StreamEvent>, ids: { id: string; model: string }): AsyncGenerator<MessagesStreamEvent> {
  yield {
    type: 'message_start',
    message: {
      id: ids.id,
      type: 'message',
      role: 'assistant',
      model: ids.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    },
  };
  yield { type: 'ping' };

  let open: OpenBlock | undefined;
  let blocks = 0;
  /** Block index of each tool call, by the call's index among the answer's tool calls. */
  const toolBlocks = new Map<number, number>();
  let reason: FinishReason = 'stop';
  let stopSequence: string | null = null;
  let usage: Usage | undefined;

  const close = function* (): Generator<MessagesStreamEvent> {
    if (open) yield { type: 'content_block_stop', index: open.index };
    open = undefined;
  };
  const start = function* (kind: OpenBlock, block: MessagesContentBlock): Generator<MessagesStreamEvent> {
    yield* close();
    open = kind;
    yield { type: 'content_block_start', index: kind.index, content_block: block };
  };
  /** Opens a text or thinking block unless one of that kind is open already. */
  const ensure = function* (kind: 'text' | 'thinking'): Generator<MessagesStreamEvent, number> {
    if (open?.kind === kind) return open.index;
    const index = blocks++;
    yield* start({ kind, index }, kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' });
    return index;
  };

  for await (const event of events) {
    switch (event.type) {
      case 'start':
        break;
      case 'text_delta':
        if (event.text === '') break;
        yield { type: 'content_block_delta', index: yield* ensure('text'), delta: { type: 'text_delta', text: event.text } };
        break;
      case 'reasoning_delta':
        if (event.text !== '' || event.signature) {
          const index = yield* ensure('thinking');
          if (event.text !== '') yield { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: event.text } };
          if (event.signature) yield { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: event.signature } };
        }
        if (event.redacted !== undefined) {
          const index = blocks++;
          yield* start({ kind: 'thinking', index }, { type: 'redacted_thinking', data: event.redacted });
          yield* close();
        }
        break;
      case 'tool_call_start': {
        const index = blocks++;
        toolBlocks.set(event.index, index);
        const block: MessagesContentBlock = { type: 'tool_use', id: encodeToolCallId(event.id, event.signature), name: event.name, input: {} };
        yield* start({ kind: 'tool', index, call: event.index }, block);
        break;
      }
      case 'tool_call_delta': {
        const index = toolBlocks.get(event.index);
        // An empty fragment would tell the SDK nothing (and trips some parsers).
        if (index === undefined || event.argumentsDelta === '') break;
        yield { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: event.argumentsDelta } };
        break;
      }
      case 'tool_call_end':
        if (open?.kind === 'tool' && open.call === event.index) yield* close();
        break;
      case 'finish':
        reason = event.reason;
        stopSequence = event.stopSequence ?? null;
        break;
      case 'usage':
        usage = event.usage;
        break;
      default:
        assertNever(event);
    }
  }
  yield* close();
  yield {
    type: 'message_delta',
    delta: { stop_reason: mapStopReason(reason, toolBlocks.size > 0), stop_sequence: stopSequence },
    usage: usage ? renderMessageUsage(usage) : { output_tokens: 0 },
  };
  yield { type: 'message_stop' };
}
