import { randomString } from '../../core/random-string.js';
import { encodeToolCallId } from '../../core/tool-call-signature.js';
import type { ModelResponse, Usage } from '../../core/internal-representation.js';
import { mapFinishReasonToChat } from './map-finish-reason.js';
import type { ChatCompletion, ChatUsage } from './wire-types.js';

export function newChatCompletionId(): string {
  return `chatcmpl-${randomString(12)}`;
}

/** Internal response → Chat Completions `chat.completion` object. */
export function renderChatCompletion(response: ModelResponse, model: string): ChatCompletion {
  const text = response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const toolCalls = response.content.flatMap((part) =>
    part.type === 'tool_call'
      ? [{ id: encodeToolCallId(part.id, part.signature), type: 'function' as const, function: { name: part.name, arguments: part.arguments } }]
      : [],
  );
  return {
    id: response.id?.startsWith('chatcmpl-') ? response.id : newChatCompletionId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text === '' && toolCalls.length > 0 ? null : text,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: mapFinishReasonToChat(response.finishReason),
        logprobs: null,
      },
    ],
    usage: renderChatUsage(response.usage),
  };
}

/** OpenAI's prompt tokens include cached ones and completion tokens include reasoning, as ours do. */
export function renderChatUsage(usage: Usage): ChatUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}
