import type { ImageUrlVisitor } from '../../outbound/image-inliner.js';
import { asRecord } from '../upstream/parse-json.js';
import { mediaUrl } from './convert-request.js';

/**
 * Image URLs in the bodies the OpenAI provider passes through untranslated, replaced by `data:` URLs of
 * what `visit` returns (see outbound/image-inliner.ts). Each `visit` gets the field as the client named it.
 * Neither function mutates the body: the router may send it to another deployment as it came.
 */

/**
 * Chat Completions: `messages[i].content[j].image_url.url` of `image_url` parts.
 *
 * @example
 * const inlined = await inliner.inline(body, rewriteChatImageUrls, signal);
 */
export function rewriteChatImageUrls(body: Record<string, unknown>, visit: ImageUrlVisitor): Record<string, unknown> {
  if (!Array.isArray(body.messages)) return body;
  let changed = false;
  const messages = body.messages.map((message: unknown, i) => {
    const record = asRecord(message);
    if (!record || !Array.isArray(record.content)) return message;
    const content = record.content.map((part: unknown, j) => {
      const imageUrl = asRecord(asRecord(part)?.image_url);
      if (asRecord(part)?.type !== 'image_url' || typeof imageUrl?.url !== 'string') return part;
      const image = visit(imageUrl.url, `messages[${i}].content[${j}].image_url.url`);
      if (!image) return part;
      changed = true;
      return { ...asRecord(part), image_url: { ...imageUrl, url: mediaUrl({ kind: 'base64', ...image }) } };
    });
    return { ...record, content };
  });
  return changed ? { ...body, messages } : body;
}

/**
 * Responses API: `input[i].content[j].image_url` of `input_image` parts in messages, and
 * `input[i].output[j].image_url` in function call outputs that return images.
 *
 * @example
 * const inlined = await inliner.inline(body, rewriteResponsesImageUrls, signal);
 */
export function rewriteResponsesImageUrls(body: Record<string, unknown>, visit: ImageUrlVisitor): Record<string, unknown> {
  if (!Array.isArray(body.input)) return body;
  let changed = false;
  const input = body.input.map((item: unknown, i) => {
    const record = asRecord(item);
    if (!record) return item;
    const rewritten = { ...record };
    for (const field of ['content', 'output'] as const) {
      const parts = record[field];
      if (!Array.isArray(parts)) continue;
      rewritten[field] = parts.map((part: unknown, j) => {
        const partRecord = asRecord(part);
        if (partRecord?.type !== 'input_image' || typeof partRecord.image_url !== 'string') return part;
        const image = visit(partRecord.image_url, `input[${i}].${field}[${j}].image_url`);
        if (!image) return part;
        changed = true;
        return { ...partRecord, image_url: mediaUrl({ kind: 'base64', ...image }) };
      });
    }
    return rewritten;
  });
  return changed ? { ...body, input } : body;
}
