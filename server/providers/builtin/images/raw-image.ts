/**
 * Decoded pixels passed between edit steps. sharp runs each pipeline's operations in its own fixed order
 * and at most once each, so edits that must happen in our order (or twice) go through raw RGBA between
 * pipelines; the round trip is a memory copy, not an encode.
 */
import sharp, { type FitEnum, type Sharp } from 'sharp';

/** 8-bit sRGB pixels with alpha: always four channels, row by row. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
}

export const CHANNELS = 4 as const;

/** A pipeline that reads the raw pixels. */
export function rawToSharp(image: RawImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: CHANNELS } });
}

/** Runs a pipeline and collects its output as RGBA, whatever colourspace or channels it ended in. */
export async function sharpToRaw(pipeline: Sharp): Promise<RawImage> {
  const { data, info } = await pipeline
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * Resized to exactly `width` x `height`; `cover` crops to keep proportions, `fill` stretches.
 *
 * @example await resizeRawImage(mask, base.width, base.height, 'fill')
 */
export async function resizeRawImage(
  image: RawImage,
  width: number,
  height: number,
  fit: keyof FitEnum = 'cover',
): Promise<RawImage> {
  if (image.width === width && image.height === height) return image;
  return sharpToRaw(rawToSharp(image).resize(width, height, { fit }));
}

/** Whether any pixel is less than fully opaque. */
export function hasTransparency(image: RawImage): boolean {
  for (let i = CHANNELS - 1; i < image.data.length; i += CHANNELS) if (image.data[i] < 255) return true;
  return false;
}
