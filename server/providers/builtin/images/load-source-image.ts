/** Decodes an uploaded image from disk, turning anything sharp cannot read into a client error. */
import sharp from 'sharp';
import type { SourceImage } from '../../../core/image-types.js';
import { GatewayError } from '../../../core/gateway-error.js';
import { sharpToRaw, type RawImage } from './raw-image.js';

/** Larger inputs are refused before decoding: a small compressed upload can hide a huge bitmap. */
export const MAX_INPUT_PIXELS = 40_000_000;

export interface LoadedImage {
  image: RawImage;
  /** Whether the file itself had an alpha channel (the decoded image always has one). */
  hadAlpha: boolean;
}

/**
 * The image upright (EXIF orientation applied) as RGBA.
 *
 * @param param the request field to blame: `image` or `mask`
 * @throws GatewayError `invalid_request` when the file is not a decodable image or is too large
 */
export async function loadSourceImage(source: SourceImage, param: 'image' | 'mask'): Promise<LoadedImage> {
  try {
    const file = sharp(source.path, { limitInputPixels: MAX_INPUT_PIXELS });
    const { hasAlpha } = await file.metadata();
    return { image: await sharpToRaw(file.autoOrient()), hadAlpha: hasAlpha };
  } catch (error) {
    const tooLarge = error instanceof Error && /pixel limit/i.test(error.message);
    const message = tooLarge
      ? `The ${param} '${source.filename}' is too large: at most ${MAX_INPUT_PIXELS.toLocaleString('en')} pixels.`
      : `The ${param} '${source.filename}' could not be read as an image. Use PNG, JPEG or WebP.`;
    throw new GatewayError('invalid_request', message, { param, cause: error });
  }
}
