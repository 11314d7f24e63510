/**
 * Strings and numbers for derive-json-from-schema: taken from the source text where possible, bent to fit
 * the schema's constraints. Pure.
 */
import type { Schema } from './resolve-schema.js';

/**
 * Fixed, valid examples for the JSON Schema `format`s a model is most often asked for; echoing the user's
 * text into a `date-time` field would make the answer fail validation.
 */
const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  duration: 'PT1H',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/**
 * The source text as a string that satisfies `format` (known formats only), `minLength` and `maxLength`.
 * Lengths count code points, as JSON Schema does. `pattern` is not attempted.
 *
 * @example deriveString({ maxLength: 5 }, 'Hello world') // → 'Hello'
 */
export function deriveString(schema: Schema, text: string): string {
  const example = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
  if (example !== undefined) return example;
  let chars = Array.from(text);
  const minLength = finite(schema.minLength) ?? 0;
  if (chars.length < minLength) {
    const filler = chars.length > 0 ? [' ', ...chars] : ['x'];
    while (chars.length < minLength) chars = chars.concat(filler);
    chars = chars.slice(0, minLength);
  }
  const maxLength = finite(schema.maxLength);
  if (maxLength !== undefined) chars = chars.slice(0, Math.max(0, maxLength));
  return chars.join('');
}

const NUMBER_IN_TEXT = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;

/**
 * The first number in the text (else 0), truncated for integers, then moved inside `minimum`, `maximum`,
 * `exclusiveMinimum`, `exclusiveMaximum` (numeric, or draft-4 booleans) and onto `multipleOf`.
 *
 * @example deriveNumber({ type: 'integer', maximum: 10 }, 'about 21.5 degrees', true) // → 10
 */
export function deriveNumber(schema: Schema, text: string, integer: boolean): number {
  const found = NUMBER_IN_TEXT.exec(text);
  let value = found ? Number(found[0]) : 0;
  if (!Number.isFinite(value)) value = 0;
  if (integer) value = Math.trunc(value);

  const minimum = finite(schema.minimum);
  const maximum = finite(schema.maximum);
  const exclusiveMin = schema.exclusiveMinimum === true ? minimum : finite(schema.exclusiveMinimum);
  const exclusiveMax = schema.exclusiveMaximum === true ? maximum : finite(schema.exclusiveMaximum);
  // Integers step over an exclusive bound by 1; numbers land halfway to the other bound (or 1 past it).
  let low = minimum ?? -Infinity;
  let high = maximum ?? Infinity;
  if (integer) {
    low = Math.ceil(Math.max(low, exclusiveMin === undefined ? -Infinity : Math.floor(exclusiveMin) + 1));
    high = Math.floor(Math.min(high, exclusiveMax === undefined ? Infinity : Math.ceil(exclusiveMax) - 1));
  }
  value = Math.min(Math.max(value, low), high);
  if (!integer && exclusiveMin !== undefined && value <= exclusiveMin) {
    value = Number.isFinite(high) ? (exclusiveMin + Math.min(high, exclusiveMax ?? high)) / 2 : exclusiveMin + 1;
  }
  if (!integer && exclusiveMax !== undefined && value >= exclusiveMax) {
    value = Number.isFinite(low) ? (Math.max(low, exclusiveMin ?? low) + exclusiveMax) / 2 : exclusiveMax - 1;
  }

  const step = finite(schema.multipleOf);
  if (step !== undefined && step > 0) {
    value = Math.round(value / step) * step;
    if (value < low || (exclusiveMin !== undefined && value <= exclusiveMin)) value += step;
    if (value > high || (exclusiveMax !== undefined && value >= exclusiveMax)) value -= step;
    value = Number(value.toPrecision(12)); // 3 × 0.1 is 0.30000000000000004 in binary floating point
  }
  return value;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
