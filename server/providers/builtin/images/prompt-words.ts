/** How prompts are read for keywords: lower-case words only, so punctuation and case never matter. */

/**
 * The prompt as lower-case words joined by single spaces, for matching words and phrases alike.
 *
 * @example normalizePrompt('A Black-and-White  photo!') // → 'a black and white photo'
 */
export function normalizePrompt(prompt: string): string {
  return promptWords(prompt).join(' ');
}

/** The prompt's words, lower-cased, in order. */
export function promptWords(prompt: string): string[] {
  return prompt.toLowerCase().match(/[a-z]+/g) ?? [];
}

/** Whether `phrase` (one or more words) appears in the normalized prompt as whole words. */
export function hasPhrase(normalized: string, phrase: string): boolean {
  return ` ${normalized} `.includes(` ${phrase} `);
}
