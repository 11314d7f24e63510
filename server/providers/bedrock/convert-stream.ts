import type { StreamEvent, Usage } from '../../core/types.js';
import { GatewayError } from '../../core/gateway-error.js';
import { jsonEvent } from '../upstream/json-event.js';
import { asRecord } from '../upstream/parse-json.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { mapBedrockStopReason } from './map-finish-reason.js';
import { bedrockStreamError } from './read-error.js';
import type { EventStreamMessage } from './read-event-stream.js';

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
 * message, a payload that is not JSON, or a stream without `messageStop` throws a GatewayError.
 *
 * @example
 * yield* convertBedrockStream(readEventStream(client.chunks(reply, signal), 'aws'), 'aws');
 */
export async function* convertBedrockStream(messages: AsyncIterable<EventStreamMessage>, providerId: string): AsyncGenerator<StreamEvent> {
  const tools = new Map<number, ToolBlock>();
  let stopReason: unknown;
  let stopped = false;
  let usage: Usage | undefined;
  for await (const message of messages) {
    if (message.messageType === 'exception') throw bedrockStreamError(message.type, message.payload, providerId);
    if (message.messageType !== 'event') {
      throw new GatewayError('upstream', `The upstream provider '${providerId}' failed: ${message.type || 'stream error'}.`, { upstream: { providerId } });
    }
    const event = jsonEvent(message.payload, providerId);
    const blockIndex = typeof event.contentBlockIndex === 'number' ? event.contentBlockIndex : -1;
    switch (message.type) {
      case 'messageStart':
        yield { type: 'start' };
        break;
      case 'contentBlockStart': {
        const toolUse = asRecord(asRecord(event.start)?.toolUse);
        if (!toolUse) break;
        const block = { index: tools.size, sentArguments: false };
        tools.set(blockIndex, block);
        yield { type: 'tool_call_start', index: block.index, id: text(toolUse.toolUseId), name: text(toolUse.name) };
        break;
      }
      case 'contentBlockDelta':
        yield* convertDelta(asRecord(event.delta), tools.get(blockIndex));
        break;
      case 'contentBlockStop': {
        const block = tools.get(blockIndex);
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
        usage = readUsage(asRecord(event.usage)) ?? usage;
        break;
      default:
      // Event types newer than this code.
    }
  }
  if (!stopped) throw upstreamStreamEndedEarly(providerId);
  yield { type: 'finish', reason: mapBedrockStopReason(stopReason) };
  if (usage) yield { type: 'usage', usage };
}

function* convertDelta(delta: Record<string, unknown> | undefined, tool: ToolBlock | undefined): Generator<StreamEvent> {
  if (!delta) return;
  if (typeof delta.text === 'string' && delta.text !== '') yield { type: 'text_delta', text: delta.text };
  const input = asRecord(delta.toolUse)?.input;
  if (tool && typeof input === 'string' && input !== '') {
    tool.sentArguments = true;
    yield { type: 'tool_call_delta', index: tool.index, argumentsDelta: input };
  }
  const reasoning = asRecord(delta.reasoningContent);
  if (reasoning) {
    if (typeof reasoning.text === 'string' && reasoning.text !== '') yield { type: 'reasoning_delta', text: reasoning.text };
    if (typeof reasoning.signature === 'string' && reasoning.signature !== '') yield { type: 'reasoning_delta', text: '', signature: reasoning.signature };
    if (typeof reasoning.redactedContent === 'string' && reasoning.redactedContent !== '') yield { type: 'reasoning_delta', text: '', redacted: reasoning.redactedContent };
  }
}

/**
 * Converse's token counts in the gateway's terms. Like Anthropic, Bedrock counts cache reads and writes apart
 * from `inputTokens`; ours include them.
 */
function readUsage(usage: Record<string, unknown> | undefined): Usage | undefined {
  if (!usage) return undefined;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);
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

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
