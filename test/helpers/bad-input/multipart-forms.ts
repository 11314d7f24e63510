import fc from 'fast-check';
import { bodyMatchesSchema } from './spec-oracle.js';
import type { Schema } from './spec-operations.js';

/** One part of a multipart form: a text field, or a file when it has a file name. */
export interface Part {
  name: string;
  value: Buffer;
  filename?: string;
  type?: string;
}

/** A form and how it is framed on the wire. */
export interface Form {
  parts: Part[];
  framing: Framing;
}

export type Framing = 'ok' | 'wrong boundary' | 'no boundary' | 'cut short' | 'LF line ends' | 'multipart/mixed' | 'no closing delimiter';

const boundary = '----bad-input-boundary-7MA4YWxkTrZu0gW';

/** The body bytes and content type of a form. */
export function encodeForm(form: Form, cutAt = 0.5): { type: string; body: Buffer } {
  const eol = form.framing === 'LF line ends' ? '\n' : '\r\n';
  const chunks: Buffer[] = [];
  for (const part of form.parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const head = `--${boundary}${eol}Content-Disposition: ${disposition}${eol}${part.type ? `Content-Type: ${part.type}${eol}` : ''}${eol}`;
    chunks.push(Buffer.from(head, 'utf8'), part.value, Buffer.from(eol));
  }
  if (form.framing !== 'no closing delimiter') chunks.push(Buffer.from(`--${boundary}--${eol}`));
  let body = Buffer.concat(chunks);
  if (form.framing === 'cut short') body = body.subarray(0, Math.max(1, Math.floor(body.length * cutAt)));
  const type = {
    'wrong boundary': `multipart/form-data; boundary=${boundary}-other`,
    'no boundary': 'multipart/form-data',
    'multipart/mixed': `multipart/mixed; boundary=${boundary}`,
  }[form.framing as string] ?? `multipart/form-data; boundary=${boundary}`;
  return { type, body };
}

/** The gateway's upload limits (image-upload.ts, start-gateway.ts). */
export const uploadLimits = { fileBytes: 4 * 1024 * 1024, files: 17, fields: 32, fieldBytes: 256 * 1024, parts: 64 };

const imageFormats = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
];
const isPng = (bytes: Buffer) => bytes.subarray(0, 4).equals(Buffer.from(imageFormats[0]!));
const isImage = (bytes: Buffer) =>
  imageFormats.some((magic) => bytes.subarray(0, magic.length).equals(Buffer.from(magic))) ||
  (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP');

/** A file name that breaks the part's header line, so what the parser makes of the part is anyone's guess. */
export const breaksHeader = (filename: string) => /[\r\n\0"]/.test(filename);

/**
 * Whether the gateway must refuse a form (`refuse`) or may take it (`either`), by the contract and the
 * upload rules: framing, limits, the file fields it takes, image contents, and the text fields against
 * the operation's multipart schema. Text where a file belongs counts for nothing: without the file, the
 * form has no image.
 */
export function judgeForm(form: Form, schema: Schema): { verdict: 'refuse' | 'either'; why: string } {
  const { parts, framing } = form;
  if (framing !== 'ok') return { verdict: 'refuse', why: `framing: ${framing}` };
  if (parts.some((part) => part.filename !== undefined && breaksHeader(part.filename))) return { verdict: 'either', why: 'a file name breaks its header' };
  // busboy cuts a file name to its base name, which is empty for `..` or `a/`, and multer then drops the
  // file; whether the dropped part still counts towards the limits is busboy's business: refuse only
  // when both readings do.
  const dropped = parts.filter((part) => part.filename !== undefined && baseName(part.filename) === '');
  if (dropped.length > 0) {
    const [kept, without] = [judgeParts(parts, schema), judgeParts(parts.filter((part) => !dropped.includes(part)), schema)];
    return kept.verdict === 'refuse' && without.verdict === 'refuse' ? without : { verdict: 'either', why: 'a file with an empty base name' };
  }
  return judgeParts(parts, schema);
}

/** busboy's base name of a file name: after the last `/` or `\\`, and empty for `.` and `..`. */
function baseName(filename: string): string {
  const base = filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
  return base === '.' || base === '..' ? '' : base;
}

function judgeParts(parts: Part[], schema: Schema): { verdict: 'refuse' | 'either'; why: string } {
  const files = parts.filter((part) => part.filename !== undefined);
  const fields = parts.filter((part) => part.filename === undefined);
  if (parts.length > uploadLimits.parts || files.length > uploadLimits.files || fields.length > uploadLimits.fields) return { verdict: 'refuse', why: 'too many parts' };
  if (files.some((file) => file.value.length > uploadLimits.fileBytes)) return { verdict: 'refuse', why: 'file over the upload limit' };
  if (fields.some((field) => field.value.length > uploadLimits.fieldBytes)) return { verdict: 'refuse', why: 'field over the limit' };
  const count = (name: string) => files.filter((file) => file.name === name).length;
  if (files.some((file) => !['image', 'image[]', 'mask'].includes(file.name)) || count('image') > 1 || count('image[]') > 16 || count('mask') > 1) {
    return { verdict: 'refuse', why: 'unexpected file field' };
  }
  const images = files.filter((file) => file.name !== 'mask');
  if (images.length === 0) return { verdict: 'refuse', why: 'no image' };
  if (!images.every((file) => isImage(file.value))) return { verdict: 'refuse', why: 'a file that is not an image' };
  if (!files.filter((file) => file.name === 'mask').every((file) => isPng(file.value))) return { verdict: 'refuse', why: 'a mask that is not a PNG' };
  const names = fields.map((field) => field.name);
  if (new Set(names).size !== names.length) return { verdict: 'either', why: 'a repeated field' };
  const values = Object.fromEntries(fields.map((field) => [field.name, field.value.toString('utf8')]));
  for (const file of files) values[file.name] = '<binary>';
  return bodyMatchesSchema(schema, values) ? { verdict: 'either', why: 'valid' } : { verdict: 'refuse', why: 'schema-invalid fields' };
}

/** File names an attacker would try: traversal, NUL, CR/LF header injection, huge, unicode, encoded dots. */
export const hostileFilenames: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '../../etc/passwd', '..\\..\\windows\\win.ini', '/etc/shadow', '%2e%2e/%2e%2e/x.png', 'a\u0000.png', 'a\r\nContent-Type: text/html\r\n\r\nx',
    'x\r\n--boundary', '"quoted".png', 'a"; name="prompt', '', ' ', '.', '..', '.htaccess', 'CON', 'nul.png', '🦜.png', '\u202egnp.exe',
    'é'.normalize('NFD') + '.png', 'x'.repeat(10_000) + '.png', '${jndi:ldap://x}', '<img src=x onerror=alert(1)>.png',
  ),
  fc.string({ maxLength: 40 }),
);
