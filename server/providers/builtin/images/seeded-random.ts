/**
 * Deterministic randomness for the built-in image model: the same inputs always draw the same numbers, so
 * the same request renders byte-identical images.
 */
import { createHash } from 'node:crypto';

/** A repeatable source of numbers, seeded once. */
export interface SeededRandom {
  /** A number in [0, 1). */
  next(): number;
  /** A number in [min, max). */
  between(min: number, max: number): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/**
 * A 32-bit seed from any mix of strings and numbers, via SHA-256 so that near-identical prompts still land
 * far apart.
 *
 * @example hashSeed('a red ball', 1024, 1024, 0) // → the same uint32 every time
 */
export function hashSeed(...parts: Array<string | number>): number {
  return createHash('sha256').update(JSON.stringify(parts)).digest().readUInt32BE(0);
}

/**
 * A mulberry32 generator: tiny, fast and good enough for placing shapes; not for anything secret.
 *
 * @example createSeededRandom(hashSeed('sunset')).int(1, 6)
 */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min, max) => min + next() * (max - min),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}
