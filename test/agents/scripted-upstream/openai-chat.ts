/**
 * The scripted fake's OpenAI Chat Completions side (`POST /v1/chat/completions`), written from OpenAI's API
 * reference: https://platform.openai.com/docs/api-reference/chat/create (the request),
 * https://platform.openai.com/docs/api-reference/chat/object (the answer) and
 * https://platform.openai.com/docs/api-reference/chat/streaming (the chunks, `data: [DONE]` last).
 */
import type { FakeReply, RecordedRequest } from '../../helpers/fake-upstream.js';
import { compactionView, contentText, resultText, type Decision, type RequestView } from './script.js';

interface ChatBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: Array<{ type?: string; function?: { name?: string } }>;
  messages?: Array<{ role?: string; content?: unknown }>;
}

export function viewChatRequest(request: RecordedRequest): RequestView {
  const body = (request.json ?? {}) as ChatBody;
  const lastUser = (body.messages ?? []).filter((message) => message.role === 'user').at(-1);
  return {
    ...compactionView(contentText(lastUser?.content), request.body),
    stream: body.stream === true,
    toolNames: (body.tools ?? []).flatMap((tool) => (tool.function?.name ? [tool.function.name] : [])),
    toolResults: (body.messages ?? []).filter((message) => message.role === 'tool').map((message) => resultText(message.content)),
  };
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

export function chatReply(decision: Decision, request: RecordedRequest): FakeReply {
  const body = (request.json ?? {}) as ChatBody;
  const base = { id: 'chatcmpl-scripted', created: Math.floor(Date.now() / 1000), model: body.model ?? 'scripted' };
  const toolCall = decision.kind === 'tool_call' ? { id: 'call_scripted_1', type: 'function', function: { name: decision.name, arguments: decision.arguments } } : undefined;
  const finishReason = toolCall ? 'tool_calls' : 'stop';
  if (body.stream !== true) {
    const message = { role: 'assistant', content: decision.kind === 'text' ? decision.text : null, refusal: null, ...(toolCall ? { tool_calls: [toolCall] } : {}) };
    return { json: { ...base, object: 'chat.completion', choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }], usage } };
  }
  const chunk = (delta: unknown, finish: string | null) => ({ data: JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] }) });
  const events = [
    chunk(toolCall ? { role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall, function: { name: toolCall.function.name, arguments: '' } }] } : { role: 'assistant', content: '' }, null),
    chunk(toolCall ? { tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] } : { content: decision.kind === 'text' ? decision.text : '' }, null),
    chunk({}, finishReason),
  ];
  if (body.stream_options?.include_usage) events.push({ data: JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage }) });
  events.push({ data: '[DONE]' });
  return { sse: events };
}
