import type { Usage } from '../../core/types.js';
import type { GeminiUsageMetadata } from './wire-types.js';

/**
 * Gemini's `usageMetadata` in the gateway's terms. Gemini counts thoughts apart from candidates; the
 * gateway's output includes reasoning. Tokens of tool results fed back by Gemini's own tools are prompt
 * tokens too. Counts that are missing (Gemini leaves out zeros) are 0.
 */
export function readGeminiUsage(metadata: GeminiUsageMetadata): Usage {
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const thoughts = count(metadata.thoughtsTokenCount);
  return {
    inputTokens: count(metadata.promptTokenCount) + count(metadata.toolUsePromptTokenCount),
    cachedInputTokens: count(metadata.cachedContentTokenCount),
    outputTokens: count(metadata.candidatesTokenCount) + thoughts,
    reasoningTokens: thoughts,
  };
}
