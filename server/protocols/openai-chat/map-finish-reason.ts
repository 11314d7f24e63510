import type { FinishReason } from '../../core/internal-representation.js';
import type { ChatFinishReason } from './wire-types.js';

/** Chat Completions has no separate stop-sequence or refusal reason. */
const toChat: Record<FinishReason, ChatFinishReason> = {
  stop: 'stop',
  stop_sequence: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
  refusal: 'content_filter',
};

export function mapFinishReasonToChat(reason: FinishReason): ChatFinishReason {
  return toChat[reason];
}
