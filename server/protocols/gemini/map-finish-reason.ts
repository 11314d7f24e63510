import type { FinishReason } from '../../core/internal-representation.js';

/**
 * The gateway's finish reason as Gemini's `finishReason` (https://ai.google.dev/api/generate-content#FinishReason).
 * Gemini says STOP after function calls and after a stop sequence too; a refusal (Anthropic's) is the
 * nearest thing Gemini has, a safety stop.
 */
const geminiFinishReason: Record<FinishReason, string> = {
  stop: 'STOP',
  stop_sequence: 'STOP',
  tool_calls: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  refusal: 'SAFETY',
};

export function mapFinishReasonToGemini(reason: FinishReason): string {
  return geminiFinishReason[reason];
}
