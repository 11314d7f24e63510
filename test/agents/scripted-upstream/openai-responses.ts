/**
 * The scripted fake's OpenAI Responses side (`POST /v1/responses`), written from OpenAI's API reference:
 * https://platform.openai.com/docs/api-reference/responses/create (the request: `function` tools, and
 * `namespace` tools grouping functions), https://platform.openai.com/docs/api-reference/responses/object (the
 * answer) and https://platform.openai.com/docs/api-reference/responses-streaming (the events, each with its
 * `sequence_number`; the stream ends after `response.completed`).
 */
import type { FakeReply, RecordedRequest } from '../../helpers/fake-upstream.js';
import { SCRIPTED_COMPACTION_CONTENT } from './openai-responses-compaction.js';
import { completedResponse } from './openai-responses-object.js';
import { compactionView, contentText, resultText, type Decision, type RequestView } from './script.js';

interface ResponsesTool {
  type?: string;
  name?: string;
  tools?: ResponsesTool[];
}
interface ResponsesBody {
  model?: string;
  stream?: boolean;
  tools?: ResponsesTool[];
  input?: string | Array<{ type?: string; role?: string; content?: unknown; output?: unknown }>;
}

const toolNames = (tools: ResponsesTool[]): string[] => tools.flatMap((tool) => [...(tool.name ? [tool.name] : []), ...toolNames(tool.tools ?? [])]);

export function viewResponsesRequest(request: RecordedRequest): RequestView {
  const body = (request.json ?? {}) as ResponsesBody;
  const items = Array.isArray(body.input) ? body.input : [];
  const lastUser = typeof body.input === 'string' ? body.input : contentText(items.filter((item) => item.role === 'user').at(-1)?.content);
  return {
    ...compactionView(lastUser, request.body, [SCRIPTED_COMPACTION_CONTENT]),
    stream: body.stream === true,
    toolNames: toolNames(body.tools ?? []),
    toolResults: items.filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output').map((item) => resultText(item.output ?? '')),
  };
}

export function responsesReply(decision: Decision, request: RecordedRequest): FakeReply {
  const body = (request.json ?? {}) as ResponsesBody;
  const item = decision.kind === 'tool_call'
    ? { id: 'fc_scripted_1', type: 'function_call', status: 'completed', call_id: 'call_scripted_1', name: decision.name, arguments: decision.arguments }
    : { id: 'msg_scripted_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: decision.text, annotations: [], logprobs: [] }] };
  const response = completedResponse(body.model, [item]);
  if (body.stream !== true) return { json: response };

  const inProgress = { ...response, status: 'in_progress', output: [], usage: null };
  const events: Array<{ type: string } & Record<string, unknown>> = [
    { type: 'response.created', response: inProgress },
    { type: 'response.in_progress', response: inProgress },
  ];
  if (item.type === 'function_call') {
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } },
      { type: 'response.function_call_arguments.delta', output_index: 0, item_id: item.id, delta: item.arguments },
      { type: 'response.function_call_arguments.done', output_index: 0, item_id: item.id, arguments: item.arguments },
    );
  } else {
    const text = decision.kind === 'text' ? decision.text : '';
    const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', output_index: 0, item_id: item.id, content_index: 0, part },
      { type: 'response.output_text.delta', output_index: 0, item_id: item.id, content_index: 0, delta: text, logprobs: [] },
      { type: 'response.output_text.done', output_index: 0, item_id: item.id, content_index: 0, text, logprobs: [] },
      { type: 'response.content_part.done', output_index: 0, item_id: item.id, content_index: 0, part: { ...part, text } },
    );
  }
  events.push({ type: 'response.output_item.done', output_index: 0, item }, { type: 'response.completed', response });
  return { sse: events.map((event, index) => ({ event: event.type, data: JSON.stringify({ ...event, sequence_number: index }) })) };
}
