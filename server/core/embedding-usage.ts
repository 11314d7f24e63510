import type { EmbeddingResult } from './embedding-types.js';
import type { Usage } from './internal-representation.js';

/**
 * An embeddings answer's usage, as metering and the ledger read it from the request context: input tokens
 * only (embeddings generate none), marked estimated where the gateway counted them because the upstream
 * reports none (the Gemini API).
 *
 * @example context.usage = embeddingUsage(answer.result);
 */
export function embeddingUsage(result: EmbeddingResult): Usage {
  return { inputTokens: result.inputTokens, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, ...(result.estimated && { estimated: true }) };
}
