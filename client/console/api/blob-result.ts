import { GatewayApiError } from '../../index.js';

/**
 * The Blob of a `parseAs: 'blob'` call, or its error thrown as the gateway's. A plain link cannot send the
 * key header, so the console fetches files itself and hands them to the browser (`saveBlob`).
 */
export async function blobOrThrow(result: { data?: Blob; error?: unknown; response: Response }): Promise<Blob> {
  if (!result.response.ok || !result.data) throw GatewayApiError.fromResponse(result.response, await errorBody(result.error));
  return result.data;
}

// With `parseAs: 'blob'` an error body arrives as a Blob too; read it as the JSON it is.
async function errorBody(error: unknown): Promise<unknown> {
  if (!(error instanceof Blob)) return error;
  const text = await error.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Saves a Blob as a file through a temporary object URL and a download link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the URL is only needed until then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
