import { foldSystemMessages } from '../../core/fold-system-messages.js';
import { reasoningEffort } from '../../core/reasoning-budget.js';
import type { ContentPart, MediaSource, Message, ModelRequest, ResponseFormat, ToolChoice, ToolResultPart } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ResolvedQuirks } from '../openai-compatible/quirks.js';
import type {
  ChatRequestBody,
  ChatToolCall,
  ChatUserPart,
  ChatWireMessage,
  ChatWireResponseFormat,
  ChatWireToolChoice,
} from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/**
 * Internal request → Chat Completions body, always streamed (non-streamed answers are the stream
 * collected). https://platform.openai.com/docs/api-reference/chat/create
 *
 * Dropped on purpose: reasoning parts (Chat Completions takes no reasoning input), cache hints (OpenAI
 * caches prompts automatically), `isError` on tool results (no such flag) and `topK` (not a Chat
 * Completions parameter). Refused: file URLs and non-text tool results, which the wire cannot carry.
 */
export function convertRequest(clientRequest: ModelRequest, upstreamModel: string, quirks: ResolvedQuirks): ChatRequestBody {
  const request = quirks.systemAnywhere ? clientRequest : foldSystemMessages(clientRequest);
  const messages: ChatWireMessage[] = request.instructions.map(({ text }) => ({ role: 'system', content: text }));
  // `system` rather than `developer`: OpenAI treats them alike and every compatible server knows `system`.
  request.messages.forEach((message, index) => messages.push(...convertMessage(message, index)));
  const hasTools = request.tools.length > 0;
  return compact({
    model: upstreamModel,
    messages,
    stream: true,
    stream_options: quirks.streamOptions ? { include_usage: true } : undefined,
    tools: hasTools
      ? request.tools.map((tool) => ({
          type: 'function' as const,
          function: compact({ name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strict }),
        }))
      : undefined,
    tool_choice: hasTools ? toolChoice(request.toolChoice) : undefined,
    parallel_tool_calls: hasTools ? request.parallelToolCalls : undefined,
    response_format: responseFormat(request.responseFormat),
    [quirks.maxTokensField]: request.maxOutputTokens,
    temperature: request.temperature,
    top_p: request.topP,
    stop: request.stopSequences.length > 0 ? request.stopSequences : undefined,
    seed: request.seed,
    frequency_penalty: request.frequencyPenalty,
    presence_penalty: request.presencePenalty,
    user: request.user,
    metadata: request.metadata,
    reasoning_effort: reasoningEffort(request.reasoning),
  });
}

function convertMessage(message: Message, index: number): ChatWireMessage[] {
  switch (message.role) {
    case 'user':
      return convertUserMessage(message.content, index);
    case 'assistant':
      return [convertAssistantMessage(message.content, index)];
    case 'system':
      // In its place: Chat Completions takes system messages anywhere in the conversation.
      return [{ role: 'system', content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') }];
    default:
      return assertNever(message.role);
  }
}

/**
 * Tool results become `tool` messages, one per result, ahead of the rest of the turn: Chat Completions
 * wants them right after the assistant message that called the tools.
 */
function convertUserMessage(content: ContentPart[], index: number): ChatWireMessage[] {
  const results: ChatWireMessage[] = [];
  const parts: ChatUserPart[] = [];
  content.forEach((part, partIndex) => {
    switch (part.type) {
      case 'text':
        parts.push({ type: 'text', text: part.text });
        break;
      case 'image':
        parts.push({ type: 'image_url', image_url: compact({ url: mediaUrl(part.source), detail: part.detail }) });
        break;
      case 'file':
        parts.push(filePart(part.source, part.filename, index, partIndex));
        break;
      case 'tool_result':
        results.push({ role: 'tool', tool_call_id: part.callId, content: toolResultText(part, index) });
        break;
      case 'tool_call':
        throw refusal('A tool call can only appear in an assistant message.', index);
      case 'reasoning':
        break;
      default:
        assertNever(part);
    }
  });
  if (parts.length === 0) return results;
  const only = parts.length === 1 ? parts[0] : undefined;
  return [...results, { role: 'user', content: only?.type === 'text' ? only.text : parts }];
}

function convertAssistantMessage(content: ContentPart[], index: number): ChatWireMessage {
  const texts: string[] = [];
  const toolCalls: ChatToolCall[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        texts.push(part.text);
        break;
      case 'tool_call':
        toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
        break;
      case 'reasoning':
        // Chat Completions has no way to send reasoning back; the model reasons afresh.
        break;
      case 'image':
      case 'file':
      case 'tool_result':
        throw refusal(`Chat Completions cannot carry a ${part.type} part in an assistant message.`, index);
      default:
        assertNever(part);
    }
  }
  // Separate text blocks (say, before and after a tool call) stay apart as lines.
  const text = texts.join('\n');
  if (toolCalls.length === 0) return { role: 'assistant', content: text };
  // Content is optional beside tool calls; OpenAI's own recorded traffic leaves it out rather than null.
  return texts.length > 0 ? { role: 'assistant', content: text, tool_calls: toolCalls } : { role: 'assistant', tool_calls: toolCalls };
}

function toolResultText(result: ToolResultPart, index: number): string {
  return result.content
    .map((part) => {
      if (part.type === 'text') return part.text;
      throw refusal(`Chat Completions tool messages carry text only; this tool result holds a ${part.type}.`, index);
    })
    .join('\n');
}

function filePart(source: MediaSource, filename: string | undefined, index: number, partIndex: number): ChatUserPart {
  if (source.kind === 'url') {
    throw refusal('Chat Completions takes files inline only (base64), not by URL.', index);
  }
  // OpenAI asks for a filename alongside `file_data`; make one up from the media type when none was given.
  const extension = source.mediaType.split('/')[1]?.split(/[;+]/)[0] || 'bin';
  return { type: 'file', file: { file_data: mediaUrl(source), filename: filename ?? `file-${index}-${partIndex}.${extension}` } };
}

/** A media source as the URL OpenAI takes: the URL itself, or a base64 `data:` URL. */
export function mediaUrl(source: MediaSource): string {
  switch (source.kind) {
    case 'url':
      return source.url;
    case 'base64':
      return `data:${source.mediaType};base64,${source.data}`;
    default:
      return assertNever(source);
  }
}

function toolChoice(choice: ToolChoice): ChatWireToolChoice {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default:
      return assertNever(choice);
  }
}

function responseFormat(format: ResponseFormat): ChatWireResponseFormat | undefined {
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema':
      return {
        type: 'json_schema',
        json_schema: compact({ name: format.name, schema: format.schema, strict: format.strict, description: format.description }),
      };
    default:
      return assertNever(format);
  }
}

function refusal(message: string, index: number): GatewayError {
  return new GatewayError('invalid_request', `${message} (message ${index})`, { param: 'messages' });
}

/** Leaves out undefined fields, so the body (and test expectations) list only what is sent. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}
