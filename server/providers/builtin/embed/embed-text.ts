import { textFeatures } from './text-features.js';

/** The built-in model's vector length; `dimensions` may ask for fewer. */
export const builtinEmbeddingDimensions = 256;

/**
 * A deterministic unit vector for a text: its features (text-features.ts) hashed into
 * {@link builtinEmbeddingDimensions} buckets with a hashed sign (the "hashing trick", Weinberger et al.
 * 2009, so collisions cancel out on average instead of piling up), then L2-normalised. Texts sharing
 * words and word pieces get a high cosine similarity; unrelated ones one near 0.
 *
 * With `dimensions` below the full length the vector is cut and normalised again, as OpenAI's
 * `text-embedding-3` models shorten theirs.
 *
 * @example
 * const cosine = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
 * cosine(embedText('the cat sat on the mat'), embedText('a cat sitting on a mat')) // ≈ 0.5
 */
export function embedText(text: string, dimensions = builtinEmbeddingDimensions): number[] {
  const vector = new Float64Array(builtinEmbeddingDimensions);
  for (const { hash, weight } of textFeatures(text)) {
    vector[hash % builtinEmbeddingDimensions]! += hash & 0x80000000 ? -weight : weight;
  }
  return normalised(Array.from(vector.subarray(0, dimensions)));
}

function normalised(vector: number[]): number[] {
  const length = Math.hypot(...vector);
  return length === 0 ? vector : vector.map((value) => value / length);
}
