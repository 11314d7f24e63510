import { readdirSync, readFileSync } from 'node:fs';
import type { WireScan } from '../../server/access/wire-scan/wire-scan.js';

/**
 * Shared by the wire scanners' tests: real request bodies (the spec's named examples and recorded upstream
 * requests) and junk derived from them, to show that ordinary bodies are fully understood and that no body
 * makes a scanner throw.
 */

const root = new URL('../../', import.meta.url);

/** The spec's named request examples whose names start with `prefix`, e.g. `ChatCompletionRequest`. */
export function specExamples(prefix: string): [string, unknown][] {
  const spec = JSON.parse(readFileSync(new URL('generated/openapi.json', root), 'utf8')) as { components: { examples: Record<string, { value: unknown }> } };
  return Object.entries(spec.components.examples)
    .filter(([name]) => name.startsWith(prefix))
    .map(([name, example]) => [name, example.value]);
}

/** The fields (property names) of one of the spec's schemas, e.g. `GeminiGenerationConfig`. */
export function specFields(schema: string): string[] {
  const spec = JSON.parse(readFileSync(new URL('generated/openapi.json', root), 'utf8')) as { components: { schemas: Record<string, { properties?: object }> } };
  return Object.keys(spec.components.schemas[schema]?.properties ?? {});
}

/** The request bodies recorded next to real upstream answers (test/fixtures/upstream-recorded/<folder>). */
export function recordedRequests(folder: string): [string, unknown][] {
  const dir = new URL(`test/fixtures/upstream-recorded/${folder}/`, root);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.request.json'))
    .map((file) => [file, JSON.parse(readFileSync(new URL(file, dir), 'utf8'))]);
}

/** `capability param` lines, sorted, for comparing a scan's uses whatever their order. */
export function usesOf(scan: WireScan): string[] {
  return scan.uses.map(({ capability, param }) => `${capability} ${param}`).sort();
}

/** A small seeded generator (mulberry32), so that a failing junk body can be found again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const oddValues: unknown[] = [
  null,
  undefined,
  0,
  -1,
  1e308,
  Number.NaN,
  '',
  'IMAGE',
  'constructor',
  true,
  [],
  [null],
  [[]],
  [1, 'a', {}],
  {},
  { type: 5 },
  { type: 'constructor' },
  { type: '__proto__' },
  { type: null, role: null },
  JSON.parse('{"__proto__": {"type": "text"}}'),
  Object.create(null),
];

/**
 * `count` bodies made from `body` by putting odd values at random places, or by adding fields named from
 * `keys` (which should be the protocol's field names, so that the junk reaches the scanner's walkers).
 */
export function junkBodies(body: unknown, keys: readonly string[], count: number, seed = 1): unknown[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const junk = (depth: number): unknown => {
    if (depth > 3 || next() < 0.4) return pick(oddValues);
    if (next() < 0.5) return Array.from({ length: 1 + Math.floor(next() * 3) }, () => junk(depth + 1));
    return Object.fromEntries(Array.from({ length: 1 + Math.floor(next() * 3) }, () => [pick(keys), junk(depth + 1)]));
  };
  const mutate = (value: unknown, depth: number): unknown => {
    if (next() < 0.15) return junk(depth);
    if (Array.isArray(value)) return value.map((item) => mutate(item, depth + 1));
    if (value !== null && typeof value === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(value)) copy[next() < 0.1 ? pick(keys) : key] = mutate(field, depth + 1);
      if (next() < 0.3) copy[pick(keys)] = junk(depth + 1);
      return copy;
    }
    return value;
  };
  return Array.from({ length: count }, (_, index) => (index % 10 === 0 ? junk(0) : mutate(body, 0)));
}
