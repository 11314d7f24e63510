/**
 * Splits text the way a model streams it: one word per chunk, each chunk carrying the whitespace before
 * it (`'Hello'`, `' world'`), so clients see realistic deltas.
 */

/** A run of whitespace followed by a word, or whitespace that ends the text. */
const CHUNK = /\s*\S+|\s+$/gu;

/**
 * Splits `text` into stream chunks whose concatenation is exactly `text`; empty text gives no chunks.
 *
 * @example chunkText('Hello  big\nworld ') // → ['Hello', '  big', '\nworld', ' ']
 */
export function chunkText(text: string): string[] {
  return text.match(CHUNK) ?? [];
}

/**
 * Splits a string into `count` nearly equal pieces without cutting a surrogate pair; used for tool-call
 * arguments, which models stream in a few fragments. Fewer pieces when the string is shorter than `count`.
 *
 * @example splitEvenly('{"a":1}', 2) // → ['{"a', '":1}']
 */
export function splitEvenly(text: string, count: number): string[] {
  const chars = Array.from(text);
  const pieces = Math.min(Math.max(1, Math.floor(count)), chars.length);
  const result: string[] = [];
  for (let index = 0; index < pieces; index++) {
    const start = Math.floor((index * chars.length) / pieces);
    const end = Math.floor(((index + 1) * chars.length) / pieces);
    result.push(chars.slice(start, end).join(''));
  }
  return result;
}
