import { hashString, textFeatures } from './text-features.js';

/** The built-in model's vector length (a power of two, for the Hadamard transform); `dimensions` may ask for fewer. */
export const builtinEmbeddingDimensions = 256;

/** Fixed signs applied before the transform, which make it a randomised Hadamard transform. */
const signs = Array.from({ length: builtinEmbeddingDimensions }, (_, index) => (hashString(`sign:${index}`) & 1 ? -1 : 1));

/**
 * A deterministic unit vector for a text: its features (text-features.ts) hashed into
 * {@link builtinEmbeddingDimensions} buckets with a hashed sign (the "hashing trick", Weinberger et al.
 * 2009, so collisions cancel out on average instead of piling up), then spread over every dimension by a
 * randomised Hadamard transform and L2-normalised. Texts sharing words and word pieces get a high cosine
 * similarity; unrelated ones one near 0.
 *
 * The transform is orthogonal, so it changes no similarity at full length; it is there so that every
 * dimension carries a share of every feature. With `dimensions` below the full length the vector is then
 * cut and normalised again, as OpenAI's `text-embedding-3` models shorten theirs, and the shorter vector is
 * a random projection of the full one (similarities roughly kept) rather than a few mostly empty buckets.
 *
 * @example
 * const cosine = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
 * cosine(embedText('the cat sat on the mat'), embedText('a cat sitting on a mat')) // ≈ 0.4
 */
export function embedText(text: string, dimensions = builtinEmbeddingDimensions): number[] {
  const vector = new Float64Array(builtinEmbeddingDimensions);
  for (const { hash, weight } of textFeatures(text)) {
    vector[hash % builtinEmbeddingDimensions]! += hash & 0x80000000 ? -weight : weight;
  }
  for (let index = 0; index < vector.length; index++) vector[index]! *= signs[index]!;
  hadamardTransform(vector);
  return normalised(Array.from(vector.subarray(0, dimensions)));
}

/** The fast Walsh–Hadamard transform, in place (length a power of two); unnormalised, which the caller does. */
function hadamardTransform(vector: Float64Array): void {
  for (let half = 1; half < vector.length; half *= 2) {
    for (let start = 0; start < vector.length; start += half * 2) {
      for (let index = start; index < start + half; index++) {
        const a = vector[index]!;
        const b = vector[index + half]!;
        vector[index] = a + b;
        vector[index + half] = a - b;
      }
    }
  }
}

function normalised(vector: number[]): number[] {
  const length = Math.hypot(...vector);
  return length === 0 ? vector : vector.map((value) => value / length);
}
