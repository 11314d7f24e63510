// Issue 10, "Bad input": multipart uploads to POST /v1/images/edits. fast-check breaks a valid edit form:
// parts dropped, files that are not images or are empty, hostile file names (traversal, NUL, CR/LF, 10,000
// characters, unicode), text where a file belongs, too many files, fields and parts, a file over the upload
// limit, field values outside the spec's schema, wrong or missing boundaries and bodies cut short. Each
// form is judged by the contract and the upload rules; refused ones get a 4xx in OpenAI's shape, nothing
// gets a 5xx, and no upload is left on disk afterwards.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { BadInputHarness, minimumCases, runs, seed } from './helpers/bad-input/harness.js';
import { encodeForm, hostileFilenames, judgeForm, uploadLimits, type Form, type Framing, type Part } from './helpers/bad-input/multipart-forms.js';
import { deref, operations } from './helpers/bad-input/spec-operations.js';
import { validRequest } from './helpers/bad-input/targets.js';
import { imageDirectories, makeImage, settledFiles } from './helpers/images.js';

const formRuns = 950;
/** Valid edits cost real work (the built-in model redraws the image): a few dozen are enough. */
const validEdits = 30;

const operation = operations.find((candidate) => candidate.multipart)!;
let harness: BadInputHarness;
let png: Buffer;
let jpeg: Buffer;
const sentFilenames = new Set<string>();

before(async () => {
  console.log(`bad-input multipart: seed ${seed} (BAD_INPUT_SEED=${seed} replays this run)`);
  harness = await BadInputHarness.start();
  [png, jpeg] = await Promise.all([makeImage('png', 32, 24), makeImage('jpeg', 32, 24)]);
});
after(() => harness?.close());

/** Contents for a file part: images, and things that only claim to be. */
const fileContents = fc.constantFrom<[string, () => Buffer]>(
  ['a PNG', () => png],
  ['a JPEG', () => jpeg],
  ['an empty file', () => Buffer.alloc(0)],
  ['text', () => Buffer.from('not an image at all')],
  ['a GIF', () => Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')],
  ['an SVG', () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
  ['a PNG signature and nothing else', () => png.subarray(0, 16)],
  ['a PNG cut in half', () => png.subarray(0, png.length >> 1)],
  ['random bytes', () => Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37) & 0xff))],
);

type Change =
  | { kind: 'drop'; index: number }
  | { kind: 'file contents'; contents: [string, () => Buffer] }
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file name'; filename: string }
  | { kind: 'add file'; field: string; contents: [string, () => Buffer] }
  | { kind: 'many'; what: 'image[]' | 'fields' | 'parts'; count: number }
  | { kind: 'text image' }
  | { kind: 'big file' }
  | { kind: 'framing'; framing: Framing; cutAt: number };

/** The form's fields by the spec (file fields among them, to be sent as text), and one it does not name. */
const fieldNames = [...Object.keys(deref<{ properties: Record<string, unknown> }>(operation.multipart!.schema).properties), 'unknown_field'];
const fieldValues = fc.oneof(
  fc.constantFrom('', '0', '1', '10', '11', '-1', 'abc', '1.5', 'auto', '256x256', '99999x99999', 'url', 'b64_json', 'png', 'gif', '101', 'high', 'builtin/image', 'nope/model', '\u0000', '🦜'),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(32_001, 300_000).map((length) => 'p'.repeat(length)),
);

const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('drop' as const), index: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('file contents' as const), contents: fileContents }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('field' as const), name: fc.constantFrom(...fieldNames), value: fieldValues }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('file name' as const), filename: hostileFilenames }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add file' as const), field: fc.constantFrom('image', 'image[]', 'mask', 'file', 'prompt'), contents: fileContents }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('many' as const), what: fc.constantFrom('image[]' as const, 'fields' as const, 'parts' as const), count: fc.integer({ min: 15, max: 70 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('text image' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('big file' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('framing' as const),
      framing: fc.constantFrom<Framing>('wrong boundary', 'no boundary', 'cut short', 'LF line ends', 'multipart/mixed', 'no closing delimiter'),
      cutAt: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
    }),
  },
);

/** A valid edit form: one PNG, a prompt, the built-in edit model, small base64 output. */
function validForm(): Form {
  const text = (name: string, value: string): Part => ({ name, value: Buffer.from(value) });
  return {
    parts: [
      { name: 'image', filename: 'cat.png', type: 'image/png', value: png },
      text('prompt', 'Add a red hat'),
      text('model', harness.modelWith('image_edit')),
      text('size', '256x256'),
      text('response_format', 'b64_json'),
    ],
    framing: 'ok',
  };
}

function apply(form: Form, c: Change): { form: Form; label: string; cutAt?: number } {
  const parts = form.parts;
  const firstFile = parts.find((part) => part.filename !== undefined);
  switch (c.kind) {
    case 'drop': {
      const [dropped] = parts.splice(c.index % Math.max(1, parts.length), 1);
      return { form, label: `without '${dropped?.name}'` };
    }
    case 'file contents':
      if (firstFile) firstFile.value = c.contents[1]();
      return { form, label: `file is ${c.contents[0]}` };
    case 'field': {
      const existing = parts.find((part) => part.name === c.name && part.filename === undefined);
      if (existing) existing.value = Buffer.from(c.value);
      else parts.push({ name: c.name, value: Buffer.from(c.value) });
      return { form, label: `${c.name} = ${JSON.stringify(c.value).slice(0, 40)}${c.value.length > 40 ? ` (${c.value.length} chars)` : ''}` };
    }
    case 'file name':
      if (firstFile) firstFile.filename = c.filename;
      sentFilenames.add(c.filename);
      return { form, label: `file name ${JSON.stringify(c.filename).slice(0, 60)}` };
    case 'add file':
      parts.push({ name: c.field, filename: 'extra.png', type: 'image/png', value: c.contents[1]() });
      return { form, label: `another file in '${c.field}' (${c.contents[0]})` };
    case 'many': {
      const make = (index: number): Part =>
        c.what === 'image[]' ? { name: 'image[]', filename: `${index}.png`, type: 'image/png', value: png } : { name: c.what === 'fields' ? `field${index}` : `part${index}`, value: Buffer.from('x') };
      parts.push(...Array.from({ length: c.count }, (_, index) => make(index)));
      return { form, label: `${c.count} more ${c.what}` };
    }
    case 'text image': {
      const index = parts.findIndex((part) => part.name === 'image');
      if (index !== -1) parts[index] = { name: 'image', value: Buffer.from('iVBORw0KGgo=') };
      return { form, label: "'image' sent as a text field" };
    }
    case 'big file':
      if (firstFile) firstFile.value = Buffer.concat([png, Buffer.alloc(uploadLimits.fileBytes + 1 - png.length)]);
      return { form, label: `a file of ${uploadLimits.fileBytes + 1} bytes` };
    case 'framing':
      return { form: { ...form, framing: c.framing }, label: `framing: ${c.framing}`, cutAt: c.cutAt };
  }
}

test('broken and hostile image edit forms get a 4xx in OpenAI shape, never a 5xx', { timeout: 120_000 }, async () => {
  let valid = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 2 }), async (changes) => {
      let form = validForm();
      const labels: string[] = [];
      let cutAt: number | undefined;
      for (const c of changes) {
        const applied = apply(form, c);
        form = applied.form;
        labels.push(applied.label);
        cutAt = applied.cutAt ?? cutAt;
      }
      const judged = judgeForm(form, operation.multipart!.schema);
      if (judged.verdict === 'either' && ++valid > validEdits) return;
      const { type, body } = encodeForm(form, cutAt);
      const request = validRequest(operation, harness.facts);
      await harness.check(`${labels.join('; ')} (${judged.why})`, { method: 'POST', path: request.path, headers: { ...request.headers, 'content-type': type }, body }, {
        verdict: judged.verdict,
        family: request.family,
        operation,
      });
    }),
    runs(formRuns),
  );
  await harness.assertHealthy();
});

test('no upload is left on disk, and no file took a name a client sent', async () => {
  assert.deepEqual(await settledFiles(imageDirectories(harness.gateway.dataDir).uploads), []);
  const entries = await readdir(harness.gateway.dataDir, { recursive: true });
  const clientNames = new Set([...sentFilenames].map((name) => basename(name)).filter((name) => name.length > 2));
  assert.deepEqual(entries.filter((entry) => clientNames.has(basename(entry))), []);
});

test(`at least ${minimumCases.multipart} multipart cases were sent, and the gateway is still well`, async () => {
  console.log(`bad-input multipart: ${harness.sent} cases sent`);
  assert.ok(harness.sent >= minimumCases.multipart, `only ${harness.sent} multipart cases were sent`);
  await harness.assertHealthy();
});
