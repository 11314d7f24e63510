import { conversationIdOf } from './conversation-items.js';
import type { ResponseEcho } from './render-response.js';
import type { ResponsesCreateRequest } from './wire-types.js';

/** The request settings a Response object reports back, with OpenAI's defaults where the client sent none. */
export function responseEcho(body: ResponsesCreateRequest): ResponseEcho {
  return {
    model: body.model,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    previous_response_id: body.previous_response_id ?? null,
    store: body.store !== false,
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    tool_choice: body.tool_choice ?? 'auto',
    tools: (body.tools ?? []).map(echoedTool),
    text: body.text ?? { format: { type: 'text' } },
    reasoning: body.reasoning ?? { effort: null, summary: null },
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    metadata: (body.metadata as Record<string, string> | undefined) ?? {},
    truncation: body.truncation ?? 'disabled',
    user: body.user ?? null,
    conversation: conversationIdOf(body) === undefined ? null : { id: conversationIdOf(body)! },
  };
}

/**
 * A tool as the response reports it. OpenAI's spec requires a function tool's `strict` and `parameters`
 * (null allowed), so they are null where the request left them out: the gateway does not claim a
 * strictness the client did not ask for.
 */
function echoedTool(tool: RequestTool): RequestTool {
  return tool.type === 'function' ? { ...tool, parameters: tool.parameters ?? null, strict: tool.strict ?? null } : tool;
}

type RequestTool = NonNullable<ResponsesCreateRequest['tools']>[number];
