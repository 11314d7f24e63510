/**
 * The built-in offline image model: real pictures without network or keys, so image endpoints can be
 * tried and tested anywhere.
 *
 * `generate` draws a scene from the prompt's words (shapes and colours, never text), deterministic for the
 * prompt, size and variant. `edit` applies the transformations the prompt names (greyscale, sepia, blur,
 * flip, pixelate, colour tints, …; see plan-edit.ts) to the source images, within the mask if one is given.
 * Streamed requests get each image's partial images first (stream-builtin-images.ts). Usage counts the
 * prompt and source images (count-image-usage.ts).
 */
import { GatewayError } from '../../../core/gateway-error.js';
import type {
  ImageEditRequest,
  ImageFormat,
  ImageGenerationRequest,
  ImageOptions,
  ImageResult,
} from '../../../core/image-types.js';
import { ImageData } from '../../../core/image-types.js';
import type { CallContext, ImageProvider } from '../../provider.js';
import { composeSources } from './compose-sources.js';
import { countImageUsage } from './count-image-usage.js';
import { supportsAlpha } from './encode-image.js';
import { loadSourceImage } from './load-source-image.js';
import { resizeRawImage } from './raw-image.js';
import { renderEdits } from './render-edit.js';
import { renderGeneration } from './render-generation.js';
import { resolveImageSize } from './resolve-image-size.js';
import { streamBuiltinImages } from './stream-builtin-images.js';

const DEFAULT_SIZE = { width: 1024, height: 1024 };

/**
 * Creates the built-in image provider.
 *
 * @example
 * const images = createBuiltinImages();
 * const result = await images.generate({ prompt: 'a sun over the sea', n: 1, body: {} }, { upstreamModel: 'image', signal });
 * result.images[0].data.bytes() // → a 1024x1024 PNG
 */
export function createBuiltinImages(): ImageProvider {
  const images: Pick<ImageProvider, 'generate' | 'edit'> = {
    async generate(request: ImageGenerationRequest, context: CallContext): Promise<ImageResult> {
      const canvas = resolveImageSize(request.size, DEFAULT_SIZE);
      const format = request.outputFormat ?? 'png';
      const transparent = request.background === 'transparent' && supportsAlpha(format);
      const images: Buffer[] = [];
      for (let variant = 0; variant < request.n; variant++) {
        context.signal.throwIfAborted();
        images.push(
          await renderGeneration({
            prompt: request.prompt,
            canvas,
            variant,
            format,
            compression: request.outputCompression,
            transparent,
          }),
        );
      }
      return { ...result(request, images, { width: canvas.width, height: canvas.height, format, transparent }), usage: countImageUsage(request.prompt) };
    },

    async edit(request: ImageEditRequest, context: CallContext): Promise<ImageResult> {
      // Checked before any decoding, so a bad size fails fast.
      const size = resolveImageSize(request.size);
      if (request.images.length === 0) {
        throw new GatewayError('invalid_request', 'At least one image is required.', { param: 'image' });
      }
      const format = request.outputFormat ?? 'png';
      const sources = await Promise.all(request.images.map((source) => loadSourceImage(source, 'image')));
      context.signal.throwIfAborted();
      const base = await composeSources(sources.map(({ image }) => image));
      const mask = request.mask && (await loadMask(request, base.width, base.height));
      context.signal.throwIfAborted();

      const edited = await renderEdits(
        { base, mask },
        {
          prompt: request.prompt,
          count: request.n,
          size,
          format,
          compression: request.outputCompression,
          background: request.background,
        },
        context.signal,
      );
      const { width, height } = size ?? base;
      return {
        ...result(request, edited.images, { width, height, format, transparent: edited.transparent }),
        usage: countImageUsage(request.prompt, request.images.length),
      };
    },
  };
  return { ...images, streaming: streamBuiltinImages(images) };
}

/** The mask at the base's size; one without alpha could mark nothing, so it is refused like OpenAI does. */
async function loadMask(request: ImageEditRequest, width: number, height: number) {
  const { image, hadAlpha } = await loadSourceImage(request.mask!, 'mask');
  if (!hadAlpha) {
    throw new GatewayError('invalid_request', 'The mask must be a PNG with an alpha channel.', { param: 'mask' });
  }
  return resizeRawImage(image, width, height, 'fill');
}

function result(
  request: ImageOptions,
  images: Buffer[],
  output: { width: number; height: number; format: ImageFormat; transparent: boolean },
): ImageResult {
  return {
    images: images.map((bytes) => ({ data: ImageData.fromBytes(bytes) })),
    size: `${output.width}x${output.height}`,
    outputFormat: output.format,
    background: output.transparent ? 'transparent' : 'opaque',
    quality: request.quality ?? 'auto',
  };
}
