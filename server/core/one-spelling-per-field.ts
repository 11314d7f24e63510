import { GatewayError } from './gateway-error.js';

/**
 * The one rule for fields a protocol takes in two spellings (Gemini's `maxOutputTokens` and
 * `max_output_tokens`, Chat's `max_completion_tokens` and `max_tokens`): a body that gives both is refused.
 * Choosing one by precedence is what let limits be bypassed (issue 34): the reservation read one spelling
 * and the merge kept the other. With one spelling per field, every reader sees the same value.
 */
export function twinSpellingError(first: string, second: string): GatewayError {
  return new GatewayError('invalid_request', `'${first}' and '${second}' are two spellings of one field; send only one of them.`, {
    param: second,
    code: 'duplicate_parameter',
  });
}

/** Refuses a body that sets both fields of any pair (`null` counts as set: an upstream may read it). */
export function assertOneSpelling(body: Record<string, unknown>, twins: readonly (readonly [string, string])[]): void {
  for (const [first, second] of twins) {
    if (first in body && second in body) throw twinSpellingError(first, second);
  }
}
