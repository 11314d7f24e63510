import { createHash } from 'node:crypto';

/**
 * A fake upstream's vector for a text: deterministic (the same text always gives the same vector, another
 * text another one), of the asked length, unit length as the real models' are. Tests compare what the
 * gateway returns with this, so a vector that went to the wrong input shows.
 *
 * @example fakeVector('hello', 4) // four numbers whose squares add up to 1
 */
export function fakeVector(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block += 1) {
    const digest = createHash('sha256').update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < digest.length && values.length < dimensions; i += 2) values.push(digest.readInt16BE(i) / 32768);
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((value) => value / norm);
}
