import type { FinishReason } from '../../core/internal-representation.js';

/**
 * Converse's `stopReason` in the gateway's terms
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_MessageStopEvent.html). Unknown
 * reasons end the answer as a plain stop: the content before them is still the answer.
 */
export function mapBedrockStopReason(reason: unknown): FinishReason {
  switch (reason) {
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'content_filtered':
    case 'guardrail_intervened':
      return 'content_filter';
    default:
      return 'stop';
  }
}
