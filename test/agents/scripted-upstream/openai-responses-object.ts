/**
 * The Responses object the scripted fake answers with, written from OpenAI's API reference:
 * https://platform.openai.com/docs/api-reference/responses/object.
 */

/** A completed response with every field the live API writes, so a gateway that forwards the answer as written forwards a whole one. */
export function completedResponse(model: string | undefined, output: unknown[]) {
  return {
    id: 'resp_scripted',
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: model ?? 'scripted',
    output,
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
}
