import type { ContentPart, ModelRequest } from '../core/internal-representation.js';
import type { ImageUrlVisitor } from './image-inliner.js';

/**
 * The internal request with each image given by URL (in messages and in tool results) replaced by what
 * `visit` returns for it, as inline base64. Files by URL are left alone: no upstream that wants inline
 * images takes files by URL either, and its encoder refuses them with a clearer message. Never mutates
 * `request`: the router may send the same request to another deployment that wants the URLs.
 *
 * The internal representation no longer knows the client's field names, so `visit` gets no param.
 *
 * @example
 * const inlined = await inliner.inline(request, rewriteRequestImageUrls, signal);
 */
export function rewriteRequestImageUrls(request: ModelRequest, visit: ImageUrlVisitor): ModelRequest {
  let changed = false;
  const rewritePart = <P extends ContentPart>(part: P): P => {
    if (part.type === 'image' && part.source.kind === 'url') {
      const image = visit(part.source.url, undefined);
      if (!image) return part;
      changed = true;
      return { ...part, source: { kind: 'base64', mediaType: image.mediaType, data: image.data } };
    }
    if (part.type === 'tool_result') return { ...part, content: part.content.map(rewritePart) };
    return part;
  };
  const messages = request.messages.map((message) => ({ ...message, content: message.content.map(rewritePart) }));
  return changed ? { ...request, messages } : request;
}
