import { estimatePromptTokens } from './estimate-prompt-tokens.js';

/**
 * The input tokens of an OpenAI embeddings body, estimated for the reservation: its text as for any
 * prompt, plus one token per token ID (a body of token arrays is mostly numbers, which the prompt
 * estimate does not count). The upstream's count corrects it at settlement.
 */
export function estimateEmbeddingTokens(body: unknown): number {
  const input = (body as { input?: unknown } | undefined)?.input;
  return estimatePromptTokens(body) + countNumbers(input);
}

function countNumbers(value: unknown): number {
  if (typeof value === 'number') return 1;
  if (!Array.isArray(value)) return 0;
  let count = 0;
  for (const item of value) count += typeof item === 'number' ? 1 : Array.isArray(item) ? item.filter((inner) => typeof inner === 'number').length : 0;
  return count;
}
