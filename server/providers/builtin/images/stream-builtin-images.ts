/** Streamed answers of the built-in image models, with real partial images. */
import { imageResultEvents } from '../../../core/image-result-events.js';
import { ImageData, type ImageOptions, type ImageResult, type ImageStreamEvent } from '../../../core/image-types.js';
import type { ImageProvider, ImageStreamingProvider } from '../../provider.js';
import type { EncodeOptions } from './encode-image.js';
import { renderPartialImages } from './render-partial-images.js';

/**
 * Each image is drawn whole first (the drawing is one sharp pipeline, with nothing to show halfway), then
 * sent as `partialImages` coarser renderings of itself, each as soon as it is encoded, and last as the
 * image itself.
 *
 * @example const streaming = streamBuiltinImages(images); for await (const event of streaming.generate(request, context)) …
 */
export function streamBuiltinImages(images: Pick<ImageProvider, 'generate' | 'edit'>): ImageStreamingProvider {
  return {
    generate: (request, context) => withPartialImages(() => images.generate(request, context), request, context.signal),
    edit: (request, context) => withPartialImages(() => images.edit(request, context), request, context.signal),
  };
}

async function* withPartialImages(draw: () => Promise<ImageResult>, request: ImageOptions, signal: AbortSignal): AsyncGenerator<ImageStreamEvent> {
  const result = await draw();
  // The partial images are encoded as the final ones are, so a client decodes them the same way.
  const encoding: EncodeOptions = {
    format: result.outputFormat ?? 'png',
    compression: request.outputCompression,
    alpha: result.background === 'transparent',
  };
  const count = request.partialImages ?? 0;
  yield* imageResultEvents(result, async function* (image) {
    for await (const partial of renderPartialImages(image.data.bytes(), count, encoding)) {
      signal.throwIfAborted();
      yield ImageData.fromBytes(partial);
    }
  });
}
