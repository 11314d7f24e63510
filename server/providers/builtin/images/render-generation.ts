/** Renders one generated image: plans the scene, draws it as SVG and rasterises it with sharp. */
import sharp from 'sharp';
import type { ImageFormat } from '../../../core/image-types.js';
import { composeSceneSvg } from './compose-scene-svg.js';
import { encodeImage } from './encode-image.js';
import { planScene } from './plan-scene.js';
import type { Canvas } from './plan-shapes.js';

export interface GenerationOptions {
  prompt: string;
  canvas: Canvas;
  variant: number;
  format: ImageFormat;
  compression?: number;
  /** Leave the background out; only honoured for formats with alpha. */
  transparent: boolean;
}

/**
 * The encoded image, byte-identical for the same options.
 *
 * @example await renderGeneration({ prompt: 'a sun over the sea', canvas, variant: 0, format: 'png', transparent: false })
 */
export async function renderGeneration(options: GenerationOptions): Promise<Buffer> {
  const { prompt, canvas, variant, format, compression, transparent } = options;
  const svg = composeSceneSvg(planScene({ prompt, canvas, variant, transparent }));
  // density 72 makes one SVG unit one pixel, so the raster is exactly the canvas size.
  return encodeImage(sharp(Buffer.from(svg), { density: 72 }), { format, compression, alpha: transparent });
}
