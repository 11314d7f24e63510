import type { FinishReason } from '../../core/internal-representation.js';

/**
 * Gemini's `finishReason` in the gateway's terms
 * (https://ai.google.dev/api/generate-content#FinishReason).
 *
 * Gemini says STOP after a function call too, so whether the answer called tools decides `tool_calls`.
 * The enum grows over time; reasons we do not know end the answer as a plain stop rather than an error,
 * because the text that came before them is still the answer.
 */
export function mapGeminiFinishReason(reason: string, calledTools: boolean): FinishReason {
  switch (reason) {
    case 'STOP':
      return calledTools ? 'tool_calls' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content_filter';
    // A call the model botched or was not allowed to make: it produced no usable call, so nothing to run.
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
      return 'stop';
    default:
      return calledTools ? 'tool_calls' : 'stop';
  }
}
