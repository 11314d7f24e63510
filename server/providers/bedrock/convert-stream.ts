import type { StreamEvent, Usage } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { jsonEvent } from '../upstream/json-event.js';
import { readWire, type WireSource } from '../upstream/read-wire.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { mapBedrockStopReason } from './map-finish-reason.js';
import { bedrockStreamError } from './read-error.js';
import type { EventStreamMessage } from './read-event-stream.js';
import { bedrockStreamEventSchema, type BedrockDelta, type BedrockStreamEvent, type BedrockUsage } from './stream-schemas.js';

/** What a content block (by Converse's `contentBlockIndex`) turned into: only tool calls need tracking. */
type ToolBlock = { index: number; sentArguments: boolean };

/**
 * ConverseStream's events as gateway stream events
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_ResponseSyntax):
 * `messageStart`, then per block an optional `contentBlockStart` (tool use only), `contentBlockDelta`s (text,
 * tool input as partial JSON, reasoning) and `contentBlockStop`, then `messageStop` with the stop reason and
 * `metadata` with the usage. Each payload carries a random `p` padding field, ignored.
 *
 * `finish` and `usage` are sent when the stream ends, since the usage follows the stop. An exception
 * message, a payload that is not JSON or not the shape of its event (stream-schemas.ts), or a stream
 * without `messageStop` throws a GatewayError.
 *
 * @example
 * yield* convertBedrockStream(readEventStream(client.chunks(reply, signal), 'aws'), 'aws');
 */
export async function* convertBedrockStream(messages: AsyncIterable<EventStreamMessage>, providerId: string): AsyncGenerator<StreamEvent> {
  const source = { providerId, wire: 'bedrock' };
  const tools = new Map<number, ToolBlock>();
  let stopReason: string | undefined;
  let stopped = false;
  let usage: Usage | undefined;
  for await (const message of messages) {
    const event = readEvent(message, source);
    switch (event.type) {
      case 'messageStart':
        yield { type: 'start' };
        break;
      case 'contentBlockStart': {
        const toolUse = event.start?.toolUse;
        if (!toolUse) break;
        const block = { index: tools.size, sentArguments: false };
        tools.set(event.contentBlockIndex, block);
        yield { type: 'tool_call_start', index: block.index, id: toolUse.toolUseId, name: toolUse.name };
        break;
      }
      case 'contentBlockDelta':
        yield* convertDelta(event.delta, tools.get(event.contentBlockIndex));
        break;
      case 'contentBlockStop': {
        const block = tools.get(event.contentBlockIndex);
        if (!block) break;
        // A call without arguments streams none; `{}` keeps the arguments parseable for the client.
        if (!block.sentArguments) yield { type: 'tool_call_delta', index: block.index, argumentsDelta: '{}' };
        yield { type: 'tool_call_end', index: block.index };
        break;
      }
      case 'messageStop':
        stopped = true;
        stopReason = event.stopReason;
        break;
      case 'metadata':
        if (event.usage) usage = readConverseUsage(event.usage);
        break;
      default:
      // Event types newer than this code.
    }
  }
  if (!stopped) throw upstreamStreamEndedEarly(providerId);
  yield { type: 'finish', reason: mapBedrockStopReason(stopReason) };
  if (usage) yield { type: 'usage', usage };
}

/**
 * One message as the event it carries, checked against its schema. An exception message is thrown as the
 * error it reports, as is an `error` message (a failure of the event stream itself).
 */
function readEvent(message: EventStreamMessage, source: WireSource): BedrockStreamEvent {
  const { providerId } = source;
  if (message.messageType === 'exception') throw bedrockStreamError(message.type, message.payload, providerId);
  if (message.messageType !== 'event') {
    throw new GatewayError('upstream', `The upstream provider '${providerId}' failed: ${message.type || 'stream error'}.`, { upstream: { providerId } });
  }
  const payload = jsonEvent(message.payload, providerId);
  // The header names the event; the payload has no type of its own.
  payload.type = message.type;
  // Only a known type can fail its schema, so the name in the message is never the upstream's own text.
  return readWire(bedrockStreamEventSchema, payload, source, `${message.type} event`);
}

function* convertDelta(delta: BedrockDelta, tool: ToolBlock | undefined): Generator<StreamEvent> {
  if (delta.text) yield { type: 'text_delta', text: delta.text };
  const input = delta.toolUse?.input;
  if (tool && input) {
    tool.sentArguments = true;
    yield { type: 'tool_call_delta', index: tool.index, argumentsDelta: input };
  }
  const reasoning = delta.reasoningContent;
  if (reasoning) {
    if (reasoning.text) yield { type: 'reasoning_delta', text: reasoning.text };
    if (reasoning.signature) yield { type: 'reasoning_delta', text: '', signature: reasoning.signature };
    if (reasoning.redactedContent) yield { type: 'reasoning_delta', text: '', redacted: reasoning.redactedContent };
  }
}

/**
 * Converse's token counts in the gateway's terms. Like Anthropic, Bedrock counts cache reads and writes apart
 * from `inputTokens`; ours include them.
 */
export function readConverseUsage(usage: BedrockUsage): Usage {
  const count = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);
  const cacheRead = count(usage.cacheReadInputTokens);
  const cacheWrite = count(usage.cacheWriteInputTokens);
  return {
    inputTokens: count(usage.inputTokens) + cacheRead + cacheWrite,
    cachedInputTokens: cacheRead,
    cacheWriteInputTokens: cacheWrite,
    outputTokens: count(usage.outputTokens),
    // Converse does not say how many of the output tokens were reasoning.
    reasoningTokens: 0,
  };
}
