import { encodeToolCallId } from '../../core/tool-call-signature.js';
import type { StreamEvent, Usage } from '../../core/internal-representation.js';
import { mapFinishReasonToChat } from './map-finish-reason.js';
import { renderChatUsage } from './render-chat-completion.js';
import type { ChatCompletionChunk } from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

type Delta = ChatCompletionChunk['choices'][number]['delta'] & { reasoning_content?: string };

export interface ChunkOptions {
  id: string;
  model: string;
  created: number;
  /** `stream_options.include_usage`: `usage: null` on every chunk, then one usage chunk with no choices. */
  includeUsage: boolean;
}

/**
 * Internal stream events → `chat.completion.chunk` objects in the order the OpenAI SDK's `.stream()`
 * helper insists on: a role chunk first, deltas, exactly one finish chunk, then the usage chunk.
 */
export async function* toChatChunks(events: AsyncIterable<StreamEvent>, options: ChunkOptions): AsyncGenerator<ChatCompletionChunk> {
  const chunk = (delta: Delta, finishReason: ChatCompletionChunk['choices'][number]['finish_reason'] = null): ChatCompletionChunk => ({
    id: options.id,
    object: 'chat.completion.chunk',
    created: options.created,
    model: options.model,
    // No `system_fingerprint`: the gateway has none, and OpenAI's chunk allows a string or nothing, not null.
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(options.includeUsage ? { usage: null } : {}),
  });

  let usage: Usage | undefined;
  let finished = false;
  yield chunk({ role: 'assistant', content: '' });
  for await (const event of events) {
    switch (event.type) {
      case 'start':
      case 'tool_call_end':
        break;
      case 'text_delta':
        if (event.text) yield chunk({ content: event.text });
        break;
      case 'reasoning_delta':
        // The de-facto extension field of DeepSeek, vLLM and OpenRouter for visible reasoning.
        if (event.text) yield chunk({ reasoning_content: event.text });
        break;
      case 'tool_call_start':
        yield chunk({ tool_calls: [{ index: event.index, id: encodeToolCallId(event.id, event.signature), type: 'function', function: { name: event.name, arguments: '' } }] });
        break;
      case 'tool_call_delta':
        if (event.argumentsDelta) yield chunk({ tool_calls: [{ index: event.index, function: { arguments: event.argumentsDelta } }] });
        break;
      case 'finish':
        finished = true;
        yield chunk({}, mapFinishReasonToChat(event.reason));
        break;
      case 'usage':
        usage = event.usage;
        break;
      default:
        assertNever(event);
    }
  }
  if (!finished) yield chunk({}, 'stop');
  if (options.includeUsage && usage) {
    yield { ...chunk({}), choices: [], usage: renderChatUsage(usage) };
  }
}
