/** Tokens a message or content part costs beyond its text in the chat formats (role markers, separators). */
const tokensPerObject = 4;

/**
 * The prompt's tokens, estimated from the request body without a tokenizer (which would cost milliseconds
 * of CPU per large prompt on the hot path): four characters a token for every key and string, plus
 * {@link tokensPerObject} for each object (a message, a part). Keys and structure cost the upstream little,
 * so for prose this errs high, as a reservation should; text denser than four characters a token (code
 * full of symbols, non-Latin scripts) can come out low. The real count corrects it at settlement.
 */
export function estimatePromptTokens(body: unknown): number {
  const { characters, objects } = measureJson(body);
  return Math.ceil(characters / 4) + objects * tokensPerObject;
}

/** Characters in every key and string of a JSON value, and its objects (iterative, so a deeply nested body cannot overflow the stack). */
function measureJson(value: unknown): { characters: number; objects: number } {
  let characters = 0;
  let objects = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') characters += next.length;
    else if (Array.isArray(next)) for (const item of next) pending.push(item);
    else if (next !== null && typeof next === 'object') {
      objects += 1;
      for (const [key, item] of Object.entries(next)) {
        characters += key.length;
        pending.push(item);
      }
    }
  }
  return { characters, objects };
}

/** Tokens in so many characters of generated text, at about four characters a token. */
export function estimateTokensOfCharacters(characters: number): number {
  return Math.ceil(characters / 4);
}
