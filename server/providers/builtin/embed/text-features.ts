/** Character n-gram lengths: short enough that inflections share some (`sit`, `sitting`), long enough to mean something. */
const ngramLengths = [3, 4, 5] as const;
/** A whole word says more than any one of its pieces. */
const wordWeight = 2;

/** One hashed feature of a text and how much it counts. */
export interface Feature {
  hash: number;
  weight: number;
}

/**
 * The features the built-in embedding model reads from a text, after fastText's subword model
 * (Bojanowski et al., "Enriching Word Vectors with Subword Information", 2017): each lower-cased word
 * whole, and its character 3- to 5-grams with `<` and `>` marking the word's ends, so that texts sharing
 * words, stems or endings share features. A text without letters or digits is read as one word.
 *
 * @example
 * textFeatures('Cats').length // 1 word + 4 trigrams + 3 four-grams + 2 five-grams = 10
 */
export function textFeatures(text: string): Feature[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  const features: Feature[] = [];
  for (const word of words) {
    features.push({ hash: hashString(`w:${word}`), weight: wordWeight });
    const marked = [...`<${word}>`];
    for (const length of ngramLengths) {
      for (let start = 0; start + length <= marked.length; start++) {
        features.push({ hash: hashString(`g:${marked.slice(start, start + length).join('')}`), weight: 1 });
      }
    }
  }
  return features;
}

/**
 * FNV-1a over the UTF-16 code units, then MurmurHash3's finaliser so that every bit (the low ones pick
 * the dimension, the top one the sign) depends on every input bit.
 */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
