/**
 * The prompt tokens reserved for each piece of media a request names by reference instead of carrying it:
 * the most one image costs at the highest detail of the APIs the gateway speaks (OpenAI's patch-based
 * models: 1,536 patches × 1.62 ≈ 2,490; Anthropic: about 1,600 at 1.15 megapixels; Gemini: 258 to 1,120).
 * A reference's string is a few dozen characters whatever it names, so counted as text it would reserve
 * almost nothing. Files by reference (a PDF, a video) and referenced items can cost more; they are settled
 * at the upstream's count like every prompt.
 */
export const worstCaseMediaReferenceTokens = 2_500;

/**
 * How many pieces of media or history a body names by reference, in any protocol: image URLs (Chat's
 * `image_url.url`, Responses' `input_image.image_url`, Anthropic's `source.type: url`) that are not data
 * URLs, uploaded files (`file_id`, `file_url`), Gemini's `fileData` and Responses' `item_reference`.
 */
export function countMediaReferences(body: unknown): number {
  let references = 0;
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const next = pending.pop();
    if (Array.isArray(next)) pending.push(...next);
    else if (next !== null && typeof next === 'object') {
      const record = next as Record<string, unknown>;
      if (isReference(record)) references += 1;
      pending.push(...Object.values(record));
    }
  }
  return references;
}

function isReference(record: Record<string, unknown>): boolean {
  if (record.type === 'item_reference' || typeof record.file_id === 'string' || typeof record.file_url === 'string') return true;
  if (record.fileData !== null && typeof record.fileData === 'object') return true;
  if (record.type === 'url' && typeof record.url === 'string') return true;
  const image = record.image_url;
  const url = typeof image === 'string' ? image : (image as { url?: unknown } | null | undefined)?.url;
  return typeof url === 'string' && !url.startsWith('data:');
}
