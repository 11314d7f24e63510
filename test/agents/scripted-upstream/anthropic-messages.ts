/**
 * The scripted fake's Anthropic Messages side (`POST /v1/messages`, and `/v1/messages/count_tokens`), written
 * from Anthropic's API reference: https://docs.anthropic.com/en/api/messages (request and answer),
 * https://docs.anthropic.com/en/docs/build-with-claude/streaming (the event sequence, `input_json_delta` for
 * tool input) and https://docs.anthropic.com/en/api/messages-count-tokens.
 */
import type { FakeReply, RecordedRequest } from '../../helpers/fake-upstream.js';
import { compactionView, contentText, resultText, type Decision, type RequestView } from './script.js';

interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: Array<{ name?: string; type?: string }>;
  messages?: Array<{ role?: string; content?: unknown }>;
}

export function viewMessagesRequest(request: RecordedRequest): RequestView {
  const body = (request.json ?? {}) as MessagesBody;
  const blocks = (body.messages ?? []).flatMap((message) => (Array.isArray(message.content) ? (message.content as Array<{ type?: string; content?: unknown }>) : []));
  const lastUser = (body.messages ?? []).filter((message) => message.role === 'user').at(-1);
  return {
    ...compactionView(contentText(lastUser?.content), request.body),
    stream: body.stream === true,
    toolNames: (body.tools ?? []).flatMap((tool) => (tool.name ? [tool.name] : [])),
    toolResults: blocks.filter((block) => block.type === 'tool_result').map((block) => resultText(block.content ?? '')),
  };
}

export function countTokensReply(): FakeReply {
  return { json: { input_tokens: 10 } };
}

export function messagesReply(decision: Decision, request: RecordedRequest): FakeReply {
  const body = (request.json ?? {}) as MessagesBody;
  const model = body.model ?? 'scripted';
  const block = decision.kind === 'tool_call'
    ? { type: 'tool_use', id: 'toolu_scripted_1', name: decision.name, input: JSON.parse(decision.arguments) as unknown }
    : { type: 'text', text: decision.text };
  const stopReason = decision.kind === 'tool_call' ? 'tool_use' : 'end_turn';
  const message = { id: 'msg_scripted', type: 'message', role: 'assistant', model, stop_sequence: null };
  if (body.stream !== true) {
    return { json: { ...message, content: [block], stop_reason: stopReason, usage: { input_tokens: 10, output_tokens: 5 } } };
  }
  const event = (data: { type: string } & Record<string, unknown>) => ({ event: data.type, data: JSON.stringify(data) });
  const start = decision.kind === 'tool_call' ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = decision.kind === 'tool_call' ? { type: 'input_json_delta', partial_json: decision.arguments } : { type: 'text_delta', text: decision.text };
  return {
    sse: [
      event({ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } }),
      event({ type: 'content_block_start', index: 0, content_block: start }),
      event({ type: 'ping' }),
      event({ type: 'content_block_delta', index: 0, delta }),
      event({ type: 'content_block_stop', index: 0 }),
      event({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } }),
      event({ type: 'message_stop' }),
    ],
  };
}
