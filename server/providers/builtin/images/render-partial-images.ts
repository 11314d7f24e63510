/**
 * The partial images of a streamed answer: the finished picture as it looks at coarser resolutions, so a
 * client shows something real early and each partial is closer to the final image than the one before.
 */
import sharp from 'sharp';
import { encodeImage, type EncodeOptions } from './encode-image.js';
import { rawToSharp, resizeRawImage, sharpToRaw, type RawImage } from './raw-image.js';

/**
 * `count` renderings of `final` (encoded bytes), coarsest first, each at the final's size and in the
 * given encoding. Partial `index` shows the picture at 1/2^(count − index + 1) of its resolution, in
 * square blocks: with three partials 1/16, 1/8 and 1/4, so even the last is visibly unfinished.
 *
 * @example for await (const partial of renderPartialImages(png, 2, { format: 'png', alpha: false })) …
 */
export async function* renderPartialImages(final: Buffer, count: number, encoding: EncodeOptions): AsyncGenerator<Buffer> {
  if (count <= 0) return;
  const pixels = await sharpToRaw(sharp(final));
  for (let index = 0; index < count; index++) {
    yield renderCoarse(pixels, 2 ** (count - index + 1), encoding);
  }
}

/** The image shrunk by `divisor` (averaging its pixels) and blown up again without smoothing. */
async function renderCoarse(image: RawImage, divisor: number, encoding: EncodeOptions): Promise<Buffer> {
  const width = Math.max(1, Math.round(image.width / divisor));
  const height = Math.max(1, Math.round(image.height / divisor));
  const small = await resizeRawImage(image, width, height, 'fill');
  const blocks = rawToSharp(small).resize(image.width, image.height, { fit: 'fill', kernel: 'nearest' });
  return encodeImage(blocks, encoding);
}
