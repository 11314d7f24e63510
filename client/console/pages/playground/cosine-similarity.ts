/**
 * The cosine of the angle between two vectors: 1 for the same direction, 0 for unrelated, −1 for opposite.
 * Vectors of unequal length, or a zero vector, have none.
 *
 * @example cosineSimilarity([1, 0], [1, 1]) // 0.7071…
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number | undefined {
  if (a.length !== b.length || a.length === 0) return undefined;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index += 1) {
    dot += a[index]! * b[index]!;
    normA += a[index]! * a[index]!;
    normB += b[index]! * b[index]!;
  }
  return normA === 0 || normB === 0 ? undefined : dot / Math.sqrt(normA * normB);
}
