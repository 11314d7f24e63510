import type { ImageData, ImageDetails, ImageResult, ImageStreamEvent, ProducedImage } from './image-types.js';

/** What a result says about all of its images. */
export function imageDetailsOf(result: ImageResult): ImageDetails {
  return { background: result.background, outputFormat: result.outputFormat, quality: result.quality, size: result.size };
}

/**
 * A finished result as a streamed answer: per image, the partial images `partialsOf` draws for it (none
 * without it), then the image as one completed event carrying the request's usage. Serves providers that
 * cannot stream (their images are done before the first event) and the built-in model, which draws its
 * partial images from the finished one.
 *
 * @example yield* imageResultEvents(await images.generate(request, context));
 */
export async function* imageResultEvents(
  result: ImageResult,
  partialsOf?: (image: ProducedImage) => AsyncIterable<ImageData>,
): AsyncGenerator<ImageStreamEvent> {
  const details = imageDetailsOf(result);
  for (const image of result.images) {
    let partialImageIndex = 0;
    for await (const partial of partialsOf?.(image) ?? []) {
      yield { type: 'partial_image', partialImageIndex: partialImageIndex++, image: partial, details };
    }
    yield { type: 'completed', image, details, usage: result.usage };
  }
}
