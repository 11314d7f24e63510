import { randomString } from '../../core/random-string.js';
import type { ModelResponse } from '../../core/internal-representation.js';
import { assertNever } from '../../core/assert-never.js';

/**
 * IDs shaped like OpenAI's: a type prefix and 48 hex digits. Clients (Codex, the Agents SDK) tell items
 * apart by the prefix, and some check the length, so ours look the same.
 */
const hex = (): string => randomString(24);

/** An item or response ID with the given type prefix. */
export const newPrefixedId = (prefix: string): string => `${prefix}_${hex()}`;
export const newResponseId = (): string => `resp_${hex()}`;
export const newMessageItemId = (): string => `msg_${hex()}`;
export const newFunctionCallItemId = (): string => `fc_${hex()}`;
export const newReasoningItemId = (): string => `rs_${hex()}`;

/** The ID of the output item an answer part becomes: `msg_` for text, `fc_` for a tool call, `rs_` for reasoning. */
export function newOutputItemId(kind: ModelResponse['content'][number]['type']): string {
  switch (kind) {
    case 'text':
      return newMessageItemId();
    case 'tool_call':
      return newFunctionCallItemId();
    case 'reasoning':
      return newReasoningItemId();
    default:
      return assertNever(kind);
  }
}
