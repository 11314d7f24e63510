/** The `usage` of an OpenAI Batch object: the tokens of its answered requests, summed. */
export interface OpenAIBatchUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export function emptyBatchUsage(): OpenAIBatchUsage {
  return { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };
}

interface AnswerUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
  input_tokens_details?: { cached_tokens?: number };
  output_tokens_details?: { reasoning_tokens?: number };
}

/**
 * Adds one answer's `usage` to the sum: Chat Completions' and Embeddings' (`prompt_tokens`,
 * `completion_tokens`) or the Responses API's (`input_tokens`, `output_tokens`) names, as the line's own
 * answer gave them, so the batch's usage is what its answers said.
 */
export function addAnswerUsage(sum: OpenAIBatchUsage, answerBody: string | null): void {
  let usage: AnswerUsage | undefined;
  try {
    usage = (JSON.parse(answerBody ?? 'null') as { usage?: AnswerUsage } | null)?.usage;
  } catch {
    return;
  }
  if (!usage || typeof usage !== 'object') return;
  const input = count(usage.input_tokens ?? usage.prompt_tokens);
  const output = count(usage.output_tokens ?? usage.completion_tokens);
  sum.input_tokens += input;
  sum.output_tokens += output;
  sum.input_tokens_details.cached_tokens += count((usage.input_tokens_details ?? usage.prompt_tokens_details)?.cached_tokens);
  sum.output_tokens_details.reasoning_tokens += count((usage.output_tokens_details ?? usage.completion_tokens_details)?.reasoning_tokens);
  sum.total_tokens += count(usage.total_tokens) || input + output;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
