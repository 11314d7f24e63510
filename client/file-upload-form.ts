import type { components } from '../generated/api.js';

type Schemas = components['schemas'];

/** A file upload as a caller writes it: a real file instead of the spec's binary placeholder, and a number of seconds. */
export interface UploadFileParams {
  /** The content; a `File` keeps its name, a bare Blob is sent as `filename` (default `file.jsonl`). */
  file: Blob;
  filename?: string;
  purpose: Schemas['FileUploadPurpose'];
  /** When the file expires, from its creation: 3,600 to 2,592,000 seconds. */
  expires_after?: { anchor: 'created_at'; seconds: number };
}

/**
 * The `multipart/form-data` body of `POST /v1/files`, as OpenAI's SDKs send it: the file as `file`,
 * `purpose`, and `expires_after[anchor]` / `expires_after[seconds]`.
 *
 * @example
 * ```ts
 * const form = toFileUploadForm({ file: new Blob([jsonl]), filename: 'requests.jsonl', purpose: 'batch' });
 * form.get('purpose'); // 'batch'
 * ```
 */
export function toFileUploadForm(params: UploadFileParams): FormData {
  const form = new FormData();
  const named = typeof File !== 'undefined' && params.file instanceof File && params.file.name ? params.file.name : undefined;
  form.append('file', params.file, params.filename ?? named ?? 'file.jsonl');
  form.append('purpose', params.purpose);
  if (params.expires_after) {
    form.append('expires_after[anchor]', params.expires_after.anchor);
    form.append('expires_after[seconds]', String(params.expires_after.seconds));
  }
  return form;
}
