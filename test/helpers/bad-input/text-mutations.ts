import fc from 'fast-check';
import { bodyCase, type BodyCase } from './json-mutations.js';
import type { Json } from './spec-operations.js';

/** Texts that are not a JSON object, or not JSON at all, or JSON only to a lenient parser. */
const notAnObject = [
  '', ' ', 'null', 'true', '0', '"x"', '[]', '[{}]', '{', '}', '{"a":}', '{"a" 1}', "{'model':'x'}", '{"a":1,}', '{/* c */}',
  '{"a":NaN}', '{"a":Infinity}', '{"a":undefined}', '{"a":01}', '{"a":.5}', '{"a":"\t"}', '{"a":"\\x41"}', '{"a":"\\u12"}',
  '\ufeff{}', '{}{}', '{} x', '\u0000{}', 'x'.repeat(100), '{"a":"unterminated', '{"a":1}\u0000',
];

/** Structural characters and bytes to splice into a valid body. */
const spliceBytes = fc.oneof(
  fc.constantFrom(...['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '\u0000', '\u007f'].map((text) => Buffer.from(text))),
  fc.uint8Array({ minLength: 1, maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
);

type Edit =
  | { kind: 'whole'; text: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'splice'; at: number; bytes: Buffer; replace: number }
  | { kind: 'trailing'; text: string }
  | { kind: 'random bytes'; bytes: Buffer }
  | { kind: 'utf-16'; bom: boolean };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('whole' as const), text: fc.constantFrom(...notAnObject) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), bytes: spliceBytes, replace: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('trailing' as const), text: fc.constantFrom(' x', '{}', ',', ']', '\u0000', '\n{"model":1}') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('random bytes' as const), bytes: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('utf-16' as const), bom: fc.boolean() }) },
);

/** Text-level damage to one of the valid `bases`: truncation, stray bytes, other encodings, non-objects. */
export function damagedTexts(bases: Json[]): fc.Arbitrary<BodyCase> {
  return fc.record({ base: fc.nat(bases.length - 1), edit }).map(({ base, edit: e }) => {
    const text = Buffer.from(JSON.stringify(bases[base]));
    switch (e.kind) {
      case 'whole':
        return bodyCase(`body ${JSON.stringify(e.text).slice(0, 40)}`, Buffer.from(e.text));
      case 'truncate': {
        const at = 1 + (e.at % (text.length - 1));
        return bodyCase(`example ${base} cut after ${at} of ${text.length} bytes`, text.subarray(0, at));
      }
      case 'splice': {
        const at = e.at % text.length;
        const bytes = Buffer.concat([text.subarray(0, at), e.bytes, text.subarray(Math.min(text.length, at + e.replace))]);
        return bodyCase(`example ${base} with ${e.bytes.toString('hex')} at byte ${at} (replacing ${e.replace})`, bytes);
      }
      case 'trailing':
        return bodyCase(`example ${base} followed by ${JSON.stringify(e.text)}`, Buffer.concat([text, Buffer.from(e.text)]));
      case 'random bytes':
        return bodyCase(`random bytes ${e.bytes.toString('hex').slice(0, 40)}`, e.bytes);
      case 'utf-16': {
        const utf16 = Buffer.from(text.toString('utf8'), 'utf16le');
        return bodyCase(`example ${base} in UTF-16LE${e.bom ? ' with BOM' : ''}`, e.bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), utf16]) : utf16);
      }
    }
  });
}
