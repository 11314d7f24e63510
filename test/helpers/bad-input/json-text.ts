/**
 * Bytes spliced into a JSON text as they are: what a JSON value cannot hold (invalid UTF-8, `1e999`,
 * 100,000 levels of nesting that would overflow `JSON.stringify`).
 */
export class RawJson {
  constructor(readonly bytes: Buffer) {}
}

/** A JSON value that may contain raw splices anywhere. */
export type Body = null | boolean | number | string | RawJson | Body[] | { [key: string]: Body };

/** Writes a body as bytes; only the (shallow) base structure is recursed into, splices are copied. */
export function serialize(body: Body): Buffer {
  const parts: Buffer[] = [];
  const write = (node: Body): void => {
    if (node instanceof RawJson) return void parts.push(node.bytes);
    if (Array.isArray(node)) {
      parts.push(Buffer.from('['));
      node.forEach((item, index) => {
        if (index > 0) parts.push(Buffer.from(','));
        write(item);
      });
      return void parts.push(Buffer.from(']'));
    }
    if (node !== null && typeof node === 'object') {
      parts.push(Buffer.from('{'));
      Object.entries(node).forEach(([key, value], index) => {
        parts.push(Buffer.from(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`));
        write(value);
      });
      return void parts.push(Buffer.from('}'));
    }
    parts.push(Buffer.from(JSON.stringify(node)));
  };
  write(body);
  return Buffer.concat(parts);
}

/** `levels` of `[`, `{"a":` or a repeated fragment around `inner`, as text (no value is built). */
export function nested(levels: number, open: string, close: string, inner = 'null'): RawJson {
  return new RawJson(Buffer.from(open.repeat(levels) + inner + close.repeat(levels)));
}

/** A copy of a body that keeps its splices (structuredClone would make them plain objects). */
export function cloneBody(body: Body): Body {
  if (body === null || typeof body !== 'object' || body instanceof RawJson) return body;
  if (Array.isArray(body)) return body.map(cloneBody);
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, cloneBody(value)]));
}

/**
 * The node at `path` nested into itself `levels` times: for `path` = ['properties', 'city'] in a JSON
 * schema that is a schema whose property is a schema whose property is ..., the natural shape that
 * recursive code (schema converters, validators) walks. Made from text, so 100,000 levels cost nothing.
 */
export function selfNested(node: Body, path: Array<string | number>, wantedLevels: number): { raw: RawJson; levels: number } {
  const hole = Buffer.from('\u0000HOLE\u0000');
  const withHole = cloneBody(node) as Record<string | number, Body>;
  let parent = withHole;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Body>;
  parent[path.at(-1)!] = new RawJson(hole);
  const text = serialize(withHole);
  const at = text.indexOf(hole);
  const [before, after] = [text.subarray(0, at), text.subarray(at + hole.length)];
  // Deep (at least 1,001 levels, far past the gateway's 128) while that stays within 4 MB; a large repeated
  // fragment nests less. The floor used to win over the cap: 1,001 copies of an 800 KB fragment made a 1.6 GB
  // body (CI seed 60328299), which the harness's client could not even send.
  const withinSize = Math.max(1, Math.floor((4 * 1024 * 1024) / (before.length + after.length)));
  const levels = Math.min(Math.max(1_001, wantedLevels), withinSize);
  const raw = new RawJson(Buffer.concat([...new Array<Buffer>(levels).fill(before), Buffer.from('null'), ...new Array<Buffer>(levels).fill(after)]));
  return { raw, levels };
}

/** Byte sequences that are not UTF-8: a lone continuation byte, overlong `/`, a UTF-16 surrogate, past U+10FFFF, cut short. */
export const invalidUtf8Sequences: Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0x80]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xe0, 0x80, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xfe, 0xfe, 0xff, 0xff]),
];

/** A JSON string whose content holds `bad` between two halves of ordinary text. */
export function stringWithBytes(bad: Buffer, text = 'hello'): RawJson {
  return new RawJson(Buffer.concat([Buffer.from(`"${text}`), bad, Buffer.from(`${text}"`)]));
}

/** Number tokens a JavaScript number cannot say: overflow to ±Infinity, underflow, negative zero, past 2^53. */
export const oddNumberTokens = ['1e999', '-1e999', '1e-999', '-0', '9007199254740993', '123456789012345678901234567890', '1E2', '0.1e1', '-0.0'];
