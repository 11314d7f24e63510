import type { FinishReason } from '../../core/internal-representation.js';
import type { MessagesStopReason } from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/**
 * The gateway's finish reason as Anthropic's `stop_reason` (https://docs.anthropic.com/en/api/handling-stop-reasons).
 *
 * `calledTools` says the answer holds tool calls: some upstreams (Gemini) end such an answer with a plain
 * stop, and Anthropic clients continue the tool loop on `tool_use`. A content filter is Anthropic's
 * `refusal`, the only reason it has for an answer withheld.
 */
export function mapStopReason(reason: FinishReason, calledTools: boolean): NonNullable<MessagesStopReason> {
  switch (reason) {
    case 'stop':
      return calledTools ? 'tool_use' : 'end_turn';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
    case 'refusal':
      return 'refusal';
    default:
      return assertNever(reason);
  }
}
