import fc from 'fast-check';
import { cloneBody, invalidUtf8Sequences, nested, oddNumberTokens, RawJson, selfNested, serialize, stringWithBytes, type Body } from './json-text.js';
import type { Json } from './spec-operations.js';

/** A request body to send: its bytes and a short description for failure messages. */
export interface BodyCase {
  label: string;
  bytes: Buffer;
}

/** A case that fast-check prints by its label and size, not as a megabyte of byte values. */
export function bodyCase(label: string, bytes: Buffer): BodyCase {
  return { label, bytes, [fc.toStringMethod]: () => `${label} (${bytes.length} bytes)` } as BodyCase;
}

type Path = Array<string | number>;

/** Every position in a body, the root (`[]`) first; splices are leaves. */
export function pathsOf(value: Body, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object' || value instanceof RawJson) return [prefix];
  const children = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return [prefix, ...children.flatMap(([key, child]) => pathsOf(child, [...prefix, key]))];
}

function nodeAt(body: Body, path: Path): Body | undefined {
  let node: Body | undefined = body;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || node instanceof RawJson) return undefined;
    node = (node as Record<string | number, Body>)[key];
  }
  return node;
}

/** Replaces (or, with `undefined`, removes) the node at `path`; the root cannot be removed. */
function setAt(body: Body, path: Path, value: Body | undefined): Body {
  if (path.length === 0) return value ?? body;
  const parent = nodeAt(body, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object' || parent instanceof RawJson) return body;
  const key = path.at(-1)!;
  if (value !== undefined) (parent as Record<string | number, Body>)[key] = value;
  else if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete (parent as Record<string, Body>)[key];
  return body;
}

/** Values of every JSON type, small, including the ones that are right elsewhere in these bodies. */
const junk: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 1e9, '', 'x', 'user', 'auto', [], {}, [1], [{}], { type: 'text' }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

/** Text of any code points, lone surrogates included (fast-check's own 'binary' unit costs a second to set up). */
export const anyText = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)), maxLength });

/** Strings that trip up text handling: NUL, lone surrogates, bidi and zero-width marks, CR/LF, paths, markup. */
const oddStrings = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', 'a\udfffb', '\u202e\u2066rtl', '\u200b\ufeff', '\r\n\r\n', '../../etc/passwd', '<script>x</script>', '%00%2e%2e', '${x}{{y}}', '🦜'.repeat(50), 'é'.normalize('NFD')),
  anyText(40),
);

type Mutation =
  | { kind: 'wrong type'; at: number; value: Json }
  | { kind: 'remove'; at: number }
  | { kind: 'extra property'; at: number; key: string; value: Json }
  | { kind: 'huge string'; at: number; length: number; unit: string }
  | { kind: 'huge array'; at: number; count: number }
  | { kind: 'deep nesting'; at: number; levels: number; style: '[' | '{' | 'self'; inner: number }
  | { kind: 'odd number'; at: number; token: string }
  | { kind: 'odd string'; at: number; text: string }
  | { kind: 'invalid UTF-8'; at: number; sequence: number };

const at = fc.nat();
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('wrong type' as const), at, value: junk }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('remove' as const), at }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('extra property' as const),
      at,
      key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', 'unknown_field'), fc.string({ maxLength: 12 })),
      value: junk,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('huge string' as const),
      at,
      // Past typical maxLengths, then past the 1 MiB body limit.
      length: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(201, 257, 4_096, 32_001, 100_000) }, { weight: 1, arbitrary: fc.constantFrom(1_100_000, 3_000_000) }),
      unit: fc.constantFrom('lorem ipsum ', 'é ', '🦜\n', '\\" '),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('huge string' as const),
      at,
      // One word with no break in it, which a quadratic tokenizer chews on for seconds (16,000 'x' took
      // js-tiktoken 18 s), long enough to show on a fast machine, short enough that a failing run ends.
      length: fc.constantFrom(4_097, 16_000),
      unit: fc.constantFrom('x', '"', '\\'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('huge array' as const), at, count: fc.constantFrom(1_001, 10_000, 100_000) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deep nesting' as const),
      at,
      levels: fc.oneof(fc.constantFrom(1_001, 5_000, 20_000, 100_000), fc.integer({ min: 1_001, max: 100_000 })),
      style: fc.constantFrom('[' as const, '{' as const, 'self' as const),
      inner: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('odd number' as const), at, token: fc.constantFrom(...oddNumberTokens) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('odd string' as const), at, text: oddStrings }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('invalid UTF-8' as const), at, sequence: fc.nat(invalidUtf8Sequences.length - 1) }) },
);

/** Applies one mutation at the position `m.at` picks among `paths` (positions of the unmutated base). */
function apply(body: Body, paths: Path[], m: Mutation): { body: Body; label: string } {
  const path = paths[m.at % paths.length]!;
  const where = path.length ? path.join('.') : '(root)';
  const node = nodeAt(body, path);
  if (node === undefined) return { body, label: `${m.kind} at ${where} (gone)` };
  switch (m.kind) {
    case 'wrong type':
      // A copy: junk values include shared constants (`{}`, `[{}]`), which a later mutation must not change.
      return { body: setAt(body, path, structuredClone(m.value)), label: `${where} = ${JSON.stringify(m.value).slice(0, 40)}` };
    case 'remove':
      // Removing the root leaves an empty body.
      return { body: setAt(body, path, path.length ? undefined : new RawJson(Buffer.alloc(0))), label: `${where} removed` };
    case 'extra property': {
      if (node === null || typeof node !== 'object' || Array.isArray(node) || node instanceof RawJson) return apply(body, paths, { ...m, kind: 'wrong type' });
      // `__proto__` must become an own property of the JSON text, as JSON.parse makes it, not a prototype.
      Object.defineProperty(node, m.key, { value: structuredClone(m.value), enumerable: true, writable: true, configurable: true });
      return { body, label: `${where}.${JSON.stringify(m.key)} added` };
    }
    case 'huge string':
      return { body: setAt(body, path, m.unit.repeat(Math.ceil(m.length / m.unit.length)).slice(0, m.length)), label: `${where} = ${m.length} chars of ${JSON.stringify(m.unit)}` };
    case 'huge array': {
      const item = Array.isArray(node) && node.length > 0 ? node[0]! : node;
      // Written once as text (later mutations cannot reach inside); enough copies to pass the body limit,
      // not hundreds of megabytes of them.
      const text = serialize(item);
      const count = Math.min(m.count, Math.ceil((4 * 1024 * 1024) / Math.max(1, text.length)));
      const items = new Array<Buffer>(2 * count - 1).fill(Buffer.from(',')).map((comma, index) => (index % 2 ? comma : text));
      return { body: setAt(body, path, new RawJson(Buffer.concat([Buffer.from('['), ...items, Buffer.from(']')]))), label: `${where} = ${count} items` };
    }
    case 'deep nesting': {
      const inner = pathsOf(node).filter((innerPath) => innerPath.length > 0);
      if (m.style === 'self' && inner.length > 0) {
        const innerPath = inner[m.inner % inner.length]!;
        const { raw, levels } = selfNested(node, innerPath, m.levels);
        return { body: setAt(body, path, raw), label: `${where} nested in itself at ${innerPath.join('.')} ${levels} levels` };
      }
      const [open, close] = m.style === '{' ? ['{"a":', '}'] : ['[', ']'];
      return { body: setAt(body, path, nested(m.levels, open, close)), label: `${where} = ${m.levels} levels of ${open}` };
    }
    case 'odd number':
      return { body: setAt(body, path, new RawJson(Buffer.from(m.token))), label: `${where} = ${m.token}` };
    case 'odd string':
      return { body: setAt(body, path, m.text), label: `${where} = ${JSON.stringify(m.text).slice(0, 40)}` };
    case 'invalid UTF-8': {
      const sequence = invalidUtf8Sequences[m.sequence]!;
      return { body: setAt(body, path, stringWithBytes(sequence)), label: `${where} = string with bytes ${sequence.toString('hex')}` };
    }
  }
}

/** One to three mutations of one of the valid `bases`, written as bytes. */
export function mutatedBodies(bases: Json[]): fc.Arbitrary<BodyCase> {
  return fc.record({ base: fc.nat(bases.length - 1), mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }) }).map(({ base, mutations }) => {
    const original = bases[base]!;
    const paths = pathsOf(original);
    let body = cloneBody(original);
    const labels: string[] = [];
    for (const m of mutations) {
      const applied = apply(body, paths, m);
      body = applied.body;
      labels.push(applied.label);
    }
    return bodyCase(`example ${base}: ${labels.join('; ')}`, serialize(body));
  });
}
