/** Encodes a sharp pipeline into the file format the client asked for. */
import type { Sharp } from 'sharp';
import type { ImageFormat } from '../../../core/image-types.js';

export interface EncodeOptions {
  format: ImageFormat;
  /** `output_compression` as sent (0–100), used as JPEG and WebP quality. */
  compression?: number;
  /** Keep an alpha channel; ignored for JPEG, which has none. */
  alpha: boolean;
}

/**
 * Quality when the client gives none: close to OpenAI's default of 100 to the eye, at a fraction of the
 * bytes.
 */
const DEFAULT_QUALITY = 90;

/**
 * Without alpha the image is flattened onto white, so transparent source pixels never turn black in JPEG.
 *
 * @example await encodeImage(sharp(svg), { format: 'webp', compression: 80, alpha: true })
 */
export async function encodeImage(image: Sharp, options: EncodeOptions): Promise<Buffer> {
  const alpha = options.alpha && supportsAlpha(options.format);
  const prepared = alpha ? image.ensureAlpha() : image.flatten({ background: '#ffffff' });
  const quality = outputQuality(options.compression);
  switch (options.format) {
    case 'png':
      return prepared.png().toBuffer();
    case 'jpeg':
      return prepared.jpeg({ quality }).toBuffer();
    case 'webp':
      return prepared.webp({ quality }).toBuffer();
  }
}

/** Whether the format can carry transparency. */
export function supportsAlpha(format: ImageFormat): boolean {
  return format !== 'jpeg';
}

/** sharp takes quality 1–100; `output_compression` allows 0. */
export function outputQuality(compression: number | undefined): number {
  if (compression === undefined || !Number.isFinite(compression)) return DEFAULT_QUALITY;
  return Math.min(100, Math.max(1, Math.round(compression)));
}
