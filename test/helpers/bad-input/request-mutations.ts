import fc from 'fast-check';
import { anyText } from './json-mutations.js';

/**
 * Values for path segments and query parameters: wrong types, edge numbers, huge and empty text, path
 * traversal, encodings that decode to something else, NUL and CR/LF, unicode, and text in any code point.
 */
export const hostileValues: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '', ' ', '0', '-1', '1.5', '1e3', ' 5', '0x10', '99999999999999999999', 'NaN', 'Infinity', 'true', 'null', '[1]', '{}',
      '../../etc/passwd', '..', '.', '%2e%2e%2f', '%2F', '%', '%ZZ', '%00', '%0d%0aX-Injected:1', '\u0000', '\r\n', 'a/b/c',
      ':generateContent', 'x:countTokens', '<script>', "' OR 1=1 --", '${jndi:x}', '__proto__', 'constructor', 'builtin/echo/../image',
      'é', '🦜', '\u202e', 'asc', 'desc', 'day', 'model', 'sse', 'json',
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: anyText(12) },
  // Past every maxLength in the spec (256); encoded, two of them stay under Node's 16 KiB for the request head.
  { weight: 1, arbitrary: fc.constantFrom(129, 257, 1_000).chain((length) => fc.constantFrom('a', '9', '%2F', 'é').map((unit) => unit.repeat(length))) },
  // A URL carries UTF-8, which has no lone surrogates (encodeURIComponent throws on them); JSON bodies
  // still get them (json-mutations.ts).
).map((value) => value.replace(/[\ud800-\udfff]/gu, '\ufffd'));

/**
 * How a value is put into a URL: fully percent-encoded (it arrives as sent), or raw, where only what
 * cannot travel in a request line is encoded, so `/`, `?`, `#`, `%` and `..` reach the router as they are.
 */
export type Placement = 'encoded' | 'raw';

export function place(value: string, placement: Placement): string {
  if (placement === 'encoded') return encodeURIComponent(value);
  // A request target carries visible ASCII only: encode the rest (spaces, controls, non-ASCII) as UTF-8.
  return value.replace(/[^\x21-\x7e]+/gu, (run) => encodeURIComponent(run));
}

/** Whether a raw placement may change which route or query the gateway sees. */
export const mayReroute = (value: string, placement: Placement) => /^\.\.?$/.test(value) || (placement === 'raw' && /[/?#%:]/.test(value));

/** Ways to present (or fail to present) a key. `valid` ones still authenticate. */
export interface AuthVariant {
  name: string;
  /** The headers, given the operation's secret and the other realm's (the admin key for API routes and back). */
  headers: (keys: { right: string; wrong: string }) => Record<string, string>;
  valid: boolean;
}

export const authVariants: AuthVariant[] = [
  { name: 'no credentials', headers: () => ({}), valid: false },
  { name: 'empty bearer', headers: () => ({ authorization: 'Bearer ' }), valid: false },
  { name: 'bearer with two words', headers: ({ right }) => ({ authorization: `Bearer ${right} extra` }), valid: false },
  { name: 'basic auth', headers: ({ right }) => ({ authorization: `Basic ${Buffer.from(`user:${right}`).toString('base64')}` }), valid: false },
  { name: "the other realm's key", headers: ({ wrong }) => ({ authorization: `Bearer ${wrong}` }), valid: false },
  { name: 'a made-up key', headers: () => ({ authorization: 'Bearer sk-gw-0000000000000000000000000000000000000000000' }), valid: false },
  { name: 'an 8 KiB key', headers: () => ({ authorization: `Bearer ${'k'.repeat(8_192)}` }), valid: false },
  { name: 'a latin-1 key', headers: () => ({ authorization: 'Bearer clé-ÿ' }), valid: false },
  { name: 'the key as x-api-key with garbage', headers: () => ({ 'x-api-key': 'garbage' }), valid: false },
  { name: 'the key as x-goog-api-key with garbage', headers: () => ({ 'x-goog-api-key': 'garbage' }), valid: false },
  { name: 'lower-case scheme', headers: ({ right }) => ({ authorization: `bearer ${right}` }), valid: true },
];

/** HTTP methods to try on paths that do not declare them. */
export const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
