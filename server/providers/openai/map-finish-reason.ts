import type { FinishReason } from '../../core/internal-representation.js';

/**
 * Chat Completions `finish_reason` → ours.
 * https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 *
 * `function_call` is the deprecated functions API's name for a tool call. Anything else (compatible
 * servers invent values such as `eos` or `abort`) still ended the answer, so it counts as a stop.
 */
export function mapOpenAIFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}
