import type { FinishReason } from '../../core/internal-representation.js';

/**
 * Anthropic's `stop_reason` in the gateway's terms (https://docs.anthropic.com/en/api/handling-stop-reasons).
 *
 * `jsonToolAnswered` is set when the answer was the JSON response tool (see convert-request.ts): the client
 * asked for JSON, not for a tool call, so `tool_use` then means a normal stop.
 * New reasons appear over time; an unknown one ends the answer as a plain stop rather than an error,
 * because the content that came before it is still the answer.
 */
export function mapAnthropicStopReason(reason: string | null | undefined, jsonToolAnswered = false): FinishReason {
  switch (reason) {
    case 'end_turn':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'tool_use':
      return jsonToolAnswered ? 'stop' : 'tool_calls';
    // A server tool loop paused; the client sees a complete (if short) turn it can continue.
    case 'pause_turn':
      return 'stop';
    case 'refusal':
      return 'refusal';
    case 'model_context_window_exceeded':
      return 'length';
    default:
      return 'stop';
  }
}
