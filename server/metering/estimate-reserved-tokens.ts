/** Tokens reserved for the answer when the request sets no output limit. */
export const defaultOutputAllowance = 1_024;

/**
 * What a request may cost in tokens, reserved against `tokens_per_minute` before the upstream is called
 * and corrected once the real count is known: the prompt estimated from the body's text (about four
 * characters a token, which overestimates JSON with its keys and punctuation, as a reservation should),
 * plus the output limit the request asks for, or {@link defaultOutputAllowance}.
 */
export function estimateReservedTokens(body: unknown): number {
  return estimatePromptTokens(body) + (requestedOutputLimit(body) ?? defaultOutputAllowance);
}

/** The prompt's tokens, estimated from the request body's text. */
export function estimatePromptTokens(body: unknown): number {
  return estimateTokensOfCharacters(textLength(body));
}

/** Tokens in so many characters of text, at about four characters a token. */
export function estimateTokensOfCharacters(characters: number): number {
  return Math.ceil(characters / 4);
}

/** `max_tokens`, `max_completion_tokens`, `max_output_tokens` or Gemini's `generationConfig.maxOutputTokens`. */
export function requestedOutputLimit(body: unknown): number | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const fields = body as Record<string, unknown>;
  const generationConfig = fields.generationConfig as Record<string, unknown> | undefined;
  for (const value of [fields.max_tokens, fields.max_completion_tokens, fields.max_output_tokens, generationConfig?.maxOutputTokens]) {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  }
  return undefined;
}

/** The length of every string in a JSON value (iterative, so a deeply nested body cannot overflow the stack). */
function textLength(value: unknown): number {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') length += next.length;
    else if (next !== null && typeof next === 'object') for (const item of Array.isArray(next) ? next : Object.values(next)) pending.push(item);
  }
  return length;
}
