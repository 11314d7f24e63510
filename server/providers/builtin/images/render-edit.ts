/**
 * Renders the `n` edited images of one request: the prompt's edit once, then per variant its own hue,
 * the mask, the output size and the encoding.
 */
import type { ImageFormat } from '../../../core/image-types.js';
import { applyEditSteps } from './apply-edit-steps.js';
import { applyMask } from './apply-mask.js';
import { encodeImage, supportsAlpha } from './encode-image.js';
import { meanAbsoluteDifference } from './mean-absolute-difference.js';
import { planEdit, planFallbackEdit, planVariantEdit } from './plan-edit.js';
import type { Canvas } from './plan-shapes.js';
import { hasTransparency, rawToSharp, resizeRawImage, type RawImage } from './raw-image.js';

/** Below this mean difference (of 255) an edit would pass for the original. */
const MIN_VISIBLE_DIFFERENCE = 3;

export interface EditInputs {
  /** The source image, or the sources composed onto one canvas. */
  base: RawImage;
  /** Already the base's size. */
  mask?: RawImage;
}

export interface EditOptions {
  prompt: string;
  count: number;
  /** Exact output size (cropped to fill); the base's size when absent. */
  size?: Canvas;
  format: ImageFormat;
  compression?: number;
  /** `opaque` flattens onto white; otherwise the source's transparency is kept where the format allows. */
  background?: string;
}

export interface EditedImages {
  images: Buffer[];
  /** Whether any output image has transparent pixels. */
  transparent: boolean;
}

/**
 * @example await renderEdits({ base }, { prompt: 'vintage', count: 2, format: 'png' }, signal)
 */
export async function renderEdits(inputs: EditInputs, options: EditOptions, signal: AbortSignal): Promise<EditedImages> {
  const { base, mask } = inputs;
  let edited = await applyEditSteps(base, planEdit(options.prompt));
  if (meanAbsoluteDifference(base, edited) < MIN_VISIBLE_DIFFERENCE) {
    edited = await applyEditSteps(edited, planFallbackEdit(options.prompt));
  }

  const keepAlpha = supportsAlpha(options.format) && options.background !== 'opaque';
  const images: Buffer[] = [];
  let transparent = false;
  for (let variant = 0; variant < options.count; variant++) {
    signal.throwIfAborted();
    let image = await applyEditSteps(edited, planVariantEdit(variant, options.count));
    if (mask) image = applyMask(base, image, mask);
    if (options.size) image = await resizeRawImage(image, options.size.width, options.size.height, 'cover');
    const alpha = keepAlpha && hasTransparency(image);
    transparent ||= alpha;
    images.push(await encodeImage(rawToSharp(image), { format: options.format, compression: options.compression, alpha }));
  }
  return { images, transparent };
}
