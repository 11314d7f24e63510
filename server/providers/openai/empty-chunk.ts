import { asRecord } from '../upstream/parse-json.js';

/**
 * A Chat Completions chunk with no choices and no usage: nothing for the answer. Azure OpenAI opens every
 * stream with one (`choices: []`, `id: ""`, `object: ""`, and its prompt filter's `prompt_filter_results`),
 * which breaks OpenAI's chunk schema and trips clients that expect a choice or usage in every chunk.
 */
export function isEmptyChunk(chunk: Record<string, unknown>): boolean {
  return Array.isArray(chunk.choices) && chunk.choices.length === 0 && !asRecord(chunk.usage);
}
