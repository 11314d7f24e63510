import { twinSpellingError } from '../../core/one-spelling-per-field.js';

/**
 * The client's own data, whose keys are not Google's field names: function arguments and results,
 * schemas, labels and part metadata. Their keys are never renamed.
 */
const clientData = new Set(['args', 'response', 'parameters', 'parametersJsonSchema', 'responseSchema', 'responseJsonSchema', 'labels', 'partMetadata']);

/**
 * Google's JSON parser takes every field by its proto name (`generation_config`, `max_output_tokens`) as
 * well as its JSON name (`generationConfig`, `maxOutputTokens`), at every level. The gateway canonicalises
 * a Gemini body to the JSON names at the front, before the reservation, the permission checks and the
 * handlers read it, so that each of them reads the one value the upstream will get. A body that gives one
 * field in both spellings, at any level, is refused (core/one-spelling-per-field.ts). Keys of the client's
 * own data ({@link clientData}) are left as they are.
 *
 * @example
 * camelCaseFieldNames({ generation_config: { max_output_tokens: 5 } }) // → { generationConfig: { maxOutputTokens: 5 } }
 * camelCaseFieldNames({ generationConfig: {}, generation_config: {} }) // throws a 400 naming both
 */
export function camelCaseFieldNames<T extends object>(body: T): T {
  return canonical(body, '') as T;
}

function canonical(value: unknown, path: string): unknown {
  if (Array.isArray(value)) return value.map((item, index) => canonical(item, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return value;
  const spelledAs = new Map<string, string>();
  const entries = Object.entries(value).map(([key, item]): [string, unknown] => {
    const camel = key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
    const twin = spelledAs.get(camel);
    const field = path === '' ? key : `${path}.${key}`;
    if (twin !== undefined) throw twinSpellingError(path === '' ? twin : `${path}.${twin}`, field);
    spelledAs.set(camel, key);
    return [camel, clientData.has(camel) ? item : canonical(item, field)];
  });
  // fromEntries defines keys as data, so a `__proto__` key stays a key.
  return Object.fromEntries(entries);
}
