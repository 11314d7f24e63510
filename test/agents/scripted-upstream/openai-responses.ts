/**
 * The scripted fake's OpenAI Responses side (`POST /v1/responses`), written from OpenAI's API reference:
 * https://platform.openai.com/docs/api-reference/responses/create (the request: `function` tools, and
 * `namespace` tools grouping functions), https://platform.openai.com/docs/api-reference/responses/object (the
 * answer) and https://platform.openai.com/docs/api-reference/responses-streaming (the events, each with its
 * `sequence_number`; the stream ends after `response.completed`).
 */
import type { FakeReply, RecordedRequest } from '../../helpers/fake-upstream.js';
import { resultText, type Decision, type RequestView } from './script.js';

interface ResponsesTool {
  type?: string;
  name?: string;
  tools?: ResponsesTool[];
}
interface ResponsesBody {
  model?: string;
  stream?: boolean;
  tools?: ResponsesTool[];
  input?: string | Array<{ type?: string; output?: unknown }>;
}

const toolNames = (tools: ResponsesTool[]): string[] => tools.flatMap((tool) => [...(tool.name ? [tool.name] : []), ...toolNames(tool.tools ?? [])]);

export function viewResponsesRequest(request: RecordedRequest): RequestView {
  const body = (request.json ?? {}) as ResponsesBody;
  const items = Array.isArray(body.input) ? body.input : [];
  return {
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
  // Every field the live API writes, so a gateway that forwards the answer as written forwards a whole one.
  const response = {
    id: 'resp_scripted',
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: body.model ?? 'scripted',
    output: [item],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    metadata: {},
    usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 },
  };
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
