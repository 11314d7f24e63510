import { encodeToolCallId } from '../../core/tool-call-signature.js';
import type { ModelResponse, ReasoningPart, ToolCallPart, Usage } from '../../core/internal-representation.js';
import { asRecord, parseJson } from '../../providers/upstream/parse-json.js';
import { mapStopReason } from './map-stop-reason.js';
import type { MessagesContentBlock, MessagesMessage, MessagesMessageDeltaUsage, MessagesUsage } from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/**
 * A whole translated answer as an Anthropic message. `model` is the gateway model ID the client asked
 * for, as in the other protocols' translated answers.
 *
 * @example
 * res.json(renderMessage(response, { id: newMessageId(), model: body.model }));
 */
export function renderMessage(response: ModelResponse, ids: { id: string; model: string }): MessagesMessage {
  const content = response.content.flatMap((part): MessagesContentBlock[] => {
    switch (part.type) {
      case 'text':
        return part.text === '' ? [] : [{ type: 'text', text: part.text }];
      case 'reasoning':
        return renderReasoning(part);
      case 'tool_call':
        return [{ type: 'tool_use', id: encodeToolCallId(part.id, part.signature), name: part.name, input: toolInput(part) }];
      default:
        return assertNever(part);
    }
  });
  const calledTools = content.some((block) => block.type === 'tool_use');
  return {
    id: ids.id,
    type: 'message',
    role: 'assistant',
    model: ids.model,
    content,
    stop_reason: mapStopReason(response.finishReason, calledTools),
    stop_sequence: response.stopSequence ?? null,
    usage: renderMessageUsage(response.usage),
  };
}

/**
 * Anthropic's thinking block needs a signature field; reasoning from other upstreams has none, so it goes
 * out empty and is recognised as unsigned when the client sends it back. Redacted thinking is its own block.
 */
function renderReasoning(part: ReasoningPart): MessagesContentBlock[] {
  const blocks: MessagesContentBlock[] = [];
  if (part.text !== '' || part.signature) blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature ?? '' });
  if (part.redacted !== undefined) blocks.push({ type: 'redacted_thinking', data: part.redacted });
  return blocks;
}

/** Anthropic's `input` is an object; arguments that do not parse as one (a model's slip) become `{}`. */
export function toolInput(part: Pick<ToolCallPart, 'arguments'>): Record<string, unknown> {
  return asRecord(parseJson(part.arguments)) ?? {};
}

/** Anthropic counts cache reads and cache writes apart from `input_tokens`; the gateway's input includes them. */
export function renderMessageUsage(usage: Usage): MessagesUsage & MessagesMessageDeltaUsage {
  const cacheWrite = usage.cacheWriteInputTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens - cacheWrite),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: usage.cachedInputTokens,
  };
}
