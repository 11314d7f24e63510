import type { Usage } from '../../core/internal-representation.js';
import type { GeminiUsageMetadata } from './stream-schemas.js';

/**
 * Gemini's `usageMetadata` in the gateway's terms. Gemini counts thoughts apart from candidates; the
 * gateway's output includes reasoning. Tokens of tool results fed back by Gemini's own tools are prompt
 * tokens too. Counts that are missing (Gemini leaves out zeros) are 0, as are counts that are not numbers
 * in the answers the pass-through and image calls read without checking them first.
 */
export function readGeminiUsage(metadata: GeminiUsageMetadata): Usage {
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const thoughts = count(metadata.thoughtsTokenCount);
  const details = Array.isArray(metadata.promptTokensDetails) ? metadata.promptTokensDetails : [];
  const audio = details.reduce((sum, detail) => sum + (detail?.modality === 'AUDIO' ? count(detail.tokenCount) : 0), 0);
  return {
    inputTokens: count(metadata.promptTokenCount) + count(metadata.toolUsePromptTokenCount),
    cachedInputTokens: count(metadata.cachedContentTokenCount),
    outputTokens: count(metadata.candidatesTokenCount) + thoughts,
    reasoningTokens: thoughts,
    ...(audio > 0 && { audioInputTokens: audio }),
  };
}
