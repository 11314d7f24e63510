/** Puts several source images onto one canvas, so an edit of many images still returns one picture each. */
import sharp from 'sharp';
import { CHANNELS, resizeRawImage, sharpToRaw, type RawImage } from './raw-image.js';

/**
 * The images side by side in equal-width columns on a canvas the size of the first, each cropped to fill
 * its column. One image comes back as it is; a canvas narrower than the number of images keeps one column
 * per pixel and drops the rest.
 *
 * @example await composeSources([portrait, landscape]) // → portrait's size, two columns
 */
export async function composeSources(images: RawImage[]): Promise<RawImage> {
  const [first] = images;
  if (images.length === 1) return first;
  const { width, height } = first;
  const columns = images.slice(0, width);
  const layers = await Promise.all(
    columns.map(async (image, index) => {
      const left = Math.floor((index * width) / columns.length);
      const right = Math.floor(((index + 1) * width) / columns.length);
      const tile = await resizeRawImage(image, right - left, height, 'cover');
      return { input: tile.data, raw: { width: tile.width, height: tile.height, channels: CHANNELS }, left, top: 0 };
    }),
  );
  const canvas = sharp({ create: { width, height, channels: CHANNELS, background: { r: 0, g: 0, b: 0, alpha: 0 } } });
  return sharpToRaw(canvas.composite(layers));
}
