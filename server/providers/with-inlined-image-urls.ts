import type { OutboundConfig } from '../config/config-schema.js';
import type { ModelRequest, StreamEvent } from '../core/internal-representation.js';
import { ImageInliner } from '../outbound/image-inliner.js';
import { rewriteRequestImageUrls } from '../outbound/rewrite-request-image-urls.js';
import type { CallContext, PassThrough, Provider } from './provider.js';

/**
 * The provider with every image URL of a request fetched (through the outbound guard) and inlined before
 * its encoder runs, on each way in: the translated `stream()` and the Chat Completions and Responses
 * pass-throughs. Runs per attempt, with the attempt's signal, so the fetch stops when the client goes
 * away; a refused fetch is a 400 that the router does not retry elsewhere.
 *
 * A pass-through's body is rewritten by its client protocol's own rewriter, which the call brings
 * (`rewriteImageUrls`, from the protocol's definition): the OpenAI family's. The Anthropic and Gemini
 * pass-throughs, whose protocols declare none, are never present on a provider that inlines (see
 * inlinesImageUrls in registry.ts).
 *
 * @example
 * const provider = withInlinedImageUrls(createOpenAICompatibleProvider(config), config.outbound);
 */
export function withInlinedImageUrls(provider: Provider, outbound: OutboundConfig): Provider {
  const inliner = new ImageInliner(outbound);
  const passThroughs = Object.entries(provider.passThroughs ?? {}).map(([protocol, passThrough]) => {
    const inlined: PassThrough = {
      forward: async (body, call) => passThrough.forward(call.rewriteImageUrls ? await inliner.inline(body, call.rewriteImageUrls, call.signal) : body, call),
    };
    return [protocol, inlined];
  });
  return {
    ...provider,
    async *stream(request: ModelRequest, context: CallContext): AsyncGenerator<StreamEvent> {
      yield* provider.stream(await inliner.inline(request, rewriteRequestImageUrls, context.signal), context);
    },
    ...(provider.passThroughs && { passThroughs: Object.fromEntries(passThroughs) }),
    async close() {
      await Promise.all([provider.close?.(), inliner.close()]);
    },
  };
}
