import type { components } from '../generated/api.js';

type ImagesEditRequest = components['schemas']['ImagesEditRequest'];
type Scalars = Omit<ImagesEditRequest, 'image' | 'image[]' | 'mask' | 'n' | 'output_compression'>;

/**
 * An image edit as a caller writes it: real files instead of the spec's binary placeholders, and numbers
 * where the multipart wire wants digit strings.
 */
export interface EditImageParams extends Scalars {
  /** One source image, sent as `image`; an array is sent as repeated `image[]` (as the OpenAI SDK does). */
  image: Blob | Blob[];
  /** A PNG whose transparent pixels mark where to edit the first image. */
  mask?: Blob;
  /** Number of images, 1 to 10. */
  n?: number | string;
  /** 0 to 100. */
  output_compression?: number | string;
}

/**
 * Splits {@link EditImageParams} into the typed scalar fields of the request body (every value a string,
 * as multipart sends it) and the files, which only the form can carry.
 *
 * @example
 * ```ts
 * const { fields, files } = splitImageEdit({ image: png, prompt: 'Add a hat', n: 2 });
 * // fields: { prompt: 'Add a hat', n: '2' }; files: { image: png }
 * ```
 */
export function splitImageEdit(params: EditImageParams): { fields: ImagesEditRequest; files: Pick<EditImageParams, 'image' | 'mask'> } {
  const { image, mask, n, output_compression, ...scalars } = params;
  const fields: ImagesEditRequest = { ...scalars };
  if (n !== undefined) fields.n = String(n);
  if (output_compression !== undefined) fields.output_compression = String(output_compression);
  return { fields, files: mask === undefined ? { image } : { image, mask } };
}

/**
 * The `multipart/form-data` body of `POST /v1/images/edits`: one file as `image`, several as repeated
 * `image[]`, the optional `mask`, then each defined scalar as a string part.
 *
 * @example
 * ```ts
 * const form = toImageEditForm({ prompt: 'Add a hat' }, { image: [cat, hat] });
 * form.getAll('image[]').length; // 2
 * ```
 */
export function toImageEditForm(fields: ImagesEditRequest, files: Pick<EditImageParams, 'image' | 'mask'>): FormData {
  const form = new FormData();
  if (Array.isArray(files.image)) {
    files.image.forEach((file, index) => form.append('image[]', file, fileName(file, `image_${index + 1}`)));
  } else {
    form.append('image', files.image, fileName(files.image, 'image'));
  }
  if (files.mask) form.append('mask', files.mask, fileName(files.mask, 'mask'));
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && typeof value !== 'object') form.append(name, String(value));
  }
  return form;
}

const extensions: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

// A File keeps its name; a bare Blob gets one from its type, since servers tell file parts by their filename.
function fileName(blob: Blob, stem: string): string {
  if (typeof File !== 'undefined' && blob instanceof File && blob.name) return blob.name;
  return `${stem}.${extensions[blob.type] ?? 'png'}`;
}
