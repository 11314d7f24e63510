import type { StreamEvent } from '../../core/internal-representation.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { jsonEvent } from '../upstream/json-event.js';
import type { SseEvent } from '../upstream/read-sse.js';
import { readWire, type WireSource } from '../upstream/read-wire.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { anthropicStreamError } from './read-error.js';
import { emptyUsageTally, readAnthropicUsage, toGatewayUsage } from './read-usage.js';
import { anthropicStreamEventSchema, type AnthropicStreamEvent } from './stream-schemas.js';

export interface AnthropicStreamOptions {
  /** The config's provider ID, named in errors. */
  providerId: string;
  /** Set when the request asked for JSON through the response tool (convert-request.ts's `jsonResponseToolName`). */
  jsonToolName?: string;
}

/** What each Anthropic content block (by Anthropic's block index) turned into. */
type Block =
  | { kind: 'text' }
  | { kind: 'thinking' }
  | { kind: 'tool'; index: number; sentArguments: boolean }
  | { kind: 'json' }
  /** Server tool calls, their results, and block types newer than this code. */
  | { kind: 'ignored' };

/**
 * Anthropic's Messages stream as gateway stream events
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming).
 *
 * Ends with `finish` then `usage` at `message_stop`; an `error` event, a payload that is not JSON or not
 * the shape of its event (stream-schemas.ts), or a stream that stops before `message_stop` throws a
 * GatewayError. With `jsonToolName`, the JSON tool's input comes out as the answer's text, and text the
 * model wrote before calling it is dropped, so the text is exactly the JSON.
 *
 * @example
 * yield* convertAnthropicStream(readSse(body), { providerId: 'anthropic', jsonToolName: 'json' });
 */
export async function* convertAnthropicStream(events: AsyncIterable<SseEvent>, options: AnthropicStreamOptions): AsyncGenerator<StreamEvent> {
  const { providerId, jsonToolName } = options;
  const source = { providerId, wire: 'anthropic' };
  const blocks = new Map<number, Block>();
  const usage = emptyUsageTally();
  let stopReason: string | null | undefined;
  let stopSequence: string | null | undefined;
  let toolCalls = 0;
  let jsonToolAnswered = false;
  // In JSON mode, text is held until we know whether it is a preamble to the JSON tool (dropped) or the
  // answer itself (the model may answer in text when it was not forced to call the tool).
  let heldText: string[] | undefined = jsonToolName !== undefined ? [] : undefined;
  const releaseHeldText = function* (): Generator<StreamEvent> {
    const text = heldText?.join('') ?? '';
    heldText = undefined;
    if (text !== '') yield { type: 'text_delta', text };
  };
  const text = function* (value: string | undefined): Generator<StreamEvent> {
    // Once the JSON tool has answered, any text would corrupt the JSON.
    if (!value || jsonToolAnswered) return;
    if (heldText) heldText.push(value);
    else yield { type: 'text_delta', text: value };
  };

  for await (const sse of events) {
    const event = readEvent(sse, source);
    switch (event.type) {
      case 'message_start':
        readAnthropicUsage(usage, event.message.usage);
        yield event.message.id ? { type: 'start', id: event.message.id } : { type: 'start' };
        break;
      case 'content_block_start': {
        const { content_block: block, index } = event;
        switch (block.type) {
          case 'text':
            blocks.set(index, { kind: 'text' });
            yield* text(block.text);
            break;
          case 'tool_use':
            if (jsonToolName !== undefined && block.name === jsonToolName) {
              blocks.set(index, { kind: 'json' });
              jsonToolAnswered = true;
              heldText = undefined;
            } else {
              yield* releaseHeldText();
              blocks.set(index, { kind: 'tool', index: toolCalls, sentArguments: false });
              yield { type: 'tool_call_start', index: toolCalls, id: block.id, name: block.name };
              toolCalls += 1;
            }
            break;
          case 'thinking':
            blocks.set(index, { kind: 'thinking' });
            if (block.thinking || block.signature) yield reasoning(block.thinking ?? '', block.signature);
            break;
          case 'redacted_thinking':
            blocks.set(index, { kind: 'ignored' });
            if (block.data) yield { type: 'reasoning_delta', text: '', redacted: block.data };
            break;
          default:
            blocks.set(index, { kind: 'ignored' });
        }
        break;
      }
      case 'content_block_delta': {
        const block = blocks.get(event.index);
        const delta = event.delta;
        if (!block) break;
        switch (delta.type) {
          case 'text_delta':
            if (block.kind === 'text') yield* text(delta.text);
            break;
          case 'input_json_delta':
            if (!delta.partial_json) break;
            if (block.kind === 'tool') {
              block.sentArguments = true;
              yield { type: 'tool_call_delta', index: block.index, argumentsDelta: delta.partial_json };
            } else if (block.kind === 'json') {
              yield { type: 'text_delta', text: delta.partial_json };
            }
            break;
          case 'thinking_delta':
            if (block.kind === 'thinking' && delta.thinking) yield reasoning(delta.thinking);
            break;
          case 'signature_delta':
            if (block.kind === 'thinking' && delta.signature) yield reasoning('', delta.signature);
            break;
          default:
          // citations_delta and newer delta types carry nothing we represent.
        }
        break;
      }
      case 'content_block_stop': {
        const block = blocks.get(event.index);
        if (block?.kind !== 'tool') break;
        // A call without arguments streams none; `{}` keeps the arguments parseable for the client.
        if (!block.sentArguments) yield { type: 'tool_call_delta', index: block.index, argumentsDelta: '{}' };
        yield { type: 'tool_call_end', index: block.index };
        break;
      }
      case 'message_delta':
        readAnthropicUsage(usage, event.usage);
        if (event.delta.stop_reason !== undefined) stopReason = event.delta.stop_reason;
        if (event.delta.stop_sequence !== undefined) stopSequence = event.delta.stop_sequence;
        break;
      case 'message_stop': {
        yield* releaseHeldText();
        const reason = mapAnthropicStopReason(stopReason, jsonToolAnswered && toolCalls === 0);
        yield typeof stopSequence === 'string' ? { type: 'finish', reason, stopSequence } : { type: 'finish', reason };
        yield { type: 'usage', usage: toGatewayUsage(usage) };
        return;
      }
      default:
      // `ping` and event types newer than this code.
    }
  }
  throw upstreamStreamEndedEarly(providerId);
}

function reasoning(text: string, signature?: string): StreamEvent {
  return signature ? { type: 'reasoning_delta', text, signature } : { type: 'reasoning_delta', text };
}

/** One event, checked against its schema; an `error` event (any shape) is thrown as the error it reports. */
function readEvent(sse: SseEvent, source: WireSource): AnthropicStreamEvent {
  const payload = jsonEvent(sse.data, source.providerId);
  // Anthropic names each event in its payload as well as on its `event:` line; either will do.
  if (typeof payload.type !== 'string' && sse.event) payload.type = sse.event;
  if (payload.type === 'error') throw anthropicStreamError(payload, source.providerId);
  // Only a known type can fail its schema, so the name in the message is never the upstream's own text.
  return readWire(anthropicStreamEventSchema, payload, source, `${String(payload.type)} event`);
}
