/** Keeps the original where a mask says so, as OpenAI's edit masks do. */
import { CHANNELS, type RawImage } from './raw-image.js';

/** Mask pixels with alpha below this may change; the rest keep the original. */
const EDITABLE_BELOW = 128;

/**
 * Each pixel from `edited` where the mask is transparent (alpha < 128) and from `original` where it is
 * opaque. All three must be the same size (resize the mask to the base first).
 *
 * @throws Error when the sizes differ
 *
 * @see https://platform.openai.com/docs/guides/image-generation#edit-an-image-using-a-mask-inpainting
 */
export function applyMask(original: RawImage, edited: RawImage, mask: RawImage): RawImage {
  for (const image of [edited, mask]) {
    if (image.width !== original.width || image.height !== original.height) {
      throw new Error('applyMask needs images of one size');
    }
  }
  const data = Buffer.from(edited.data);
  for (let pixel = 0; pixel < data.length; pixel += CHANNELS) {
    if (mask.data[pixel + 3] >= EDITABLE_BELOW) original.data.copy(data, pixel, pixel, pixel + CHANNELS);
  }
  return { data, width: original.width, height: original.height };
}
