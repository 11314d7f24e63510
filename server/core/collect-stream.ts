import type { ModelResponse, ReasoningPart, StreamEvent, ToolCallPart, Usage } from './internal-representation.js';
import { assertNever } from './assert-never.js';

const emptyUsage = (): Usage => ({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 });

/**
 * Folds a provider's event stream into one ModelResponse: consecutive text deltas join into one text part,
 * tool-call argument deltas join per call index, reasoning deltas join and keep the last signature.
 */
export async function collectStream(events: AsyncIterable<StreamEvent>): Promise<ModelResponse> {
  const response: ModelResponse = { content: [], finishReason: 'stop', usage: emptyUsage() };
  const toolCalls = new Map<number, ToolCallPart>();
  for await (const event of events) {
    const last = response.content.at(-1);
    switch (event.type) {
      case 'start':
        if (event.id) response.id = event.id;
        break;
      case 'text_delta':
        if (last?.type === 'text') last.text += event.text;
        else response.content.push({ type: 'text', text: event.text });
        break;
      case 'reasoning_delta': {
        const part: ReasoningPart = last?.type === 'reasoning' ? last : { type: 'reasoning', text: '' };
        if (part !== last) response.content.push(part);
        part.text += event.text;
        if (event.signature) part.signature = event.signature;
        if (event.redacted) part.redacted = event.redacted;
        break;
      }
      case 'tool_call_start': {
        const call: ToolCallPart = { type: 'tool_call', id: event.id, name: event.name, arguments: '' };
        if (event.signature) call.signature = event.signature;
        toolCalls.set(event.index, call);
        response.content.push(call);
        break;
      }
      case 'tool_call_delta': {
        const call = toolCalls.get(event.index);
        if (call) call.arguments += event.argumentsDelta;
        break;
      }
      case 'tool_call_end':
        break;
      case 'finish':
        response.finishReason = event.reason;
        if (event.stopSequence !== undefined) response.stopSequence = event.stopSequence;
        break;
      case 'usage':
        response.usage = event.usage;
        break;
      default:
        assertNever(event);
    }
  }
  return response;
}
