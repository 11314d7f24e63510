/** Runs planned edit steps on decoded pixels with sharp, one pipeline per step so the order is ours. */
import type { Matrix3x3, Sharp } from 'sharp';
import { hexToRgb } from './colour-math.js';
import type { EditStep } from './plan-edit.js';
import { rawToSharp, resizeRawImage, sharpToRaw, type RawImage } from './raw-image.js';

/** Rec. 709 luma weights, applied as a recomb matrix so the image stays RGB (sharp's greyscale drops to one band). */
const GREYSCALE: Matrix3x3 = [
  [0.2126, 0.7152, 0.0722],
  [0.2126, 0.7152, 0.0722],
  [0.2126, 0.7152, 0.0722],
];

/** The classic sepia matrix (as in CSS `sepia(1)`). */
const SEPIA: Matrix3x3 = [
  [0.393, 0.769, 0.189],
  [0.349, 0.686, 0.168],
  [0.272, 0.534, 0.131],
];

/**
 * The image with every step applied in order; same size out as in (flips and rotations are by 180°).
 *
 * @example await applyEditSteps(image, planEdit('vintage and mirrored'))
 */
export async function applyEditSteps(image: RawImage, steps: readonly EditStep[]): Promise<RawImage> {
  let current = image;
  for (const step of steps) current = await applyEditStep(current, step);
  return current;
}

async function applyEditStep(image: RawImage, step: EditStep): Promise<RawImage> {
  if (step.kind === 'pixelate') return pixelate(image);
  return sharpToRaw(transform(rawToSharp(image), step, Math.min(image.width, image.height)));
}

function transform(pipeline: Sharp, step: Exclude<EditStep, { kind: 'pixelate' }>, shortSide: number): Sharp {
  switch (step.kind) {
    case 'greyscale':
      return pipeline.recomb(GREYSCALE);
    case 'sepia':
      return pipeline.recomb(SEPIA);
    case 'negate':
      return pipeline.negate({ alpha: false });
    case 'blur':
      // Scaled to the image so a blur reads as a blur at 64 px and at 4096 px alike.
      return pipeline.blur(Math.max(1.5, shortSide / 100));
    case 'sharpen':
      return pipeline.sharpen({ sigma: Math.max(1, shortSide / 300), m1: 2, m2: 4 });
    case 'brightness':
      return pipeline.modulate({ brightness: step.factor });
    case 'saturation':
      return pipeline.modulate({ saturation: step.factor });
    case 'flip':
      return pipeline.flip();
    case 'flop':
      return pipeline.flop();
    case 'rotate180':
      return pipeline.rotate(180);
    case 'hue':
      return pipeline.modulate({ hue: Math.round(step.degrees) });
    case 'tint': {
      // out = in·(1−s) + colour·s per colour channel; alpha passes through (multiplier 1, offset 0).
      const keep = 1 - step.strength;
      const [r, g, b] = hexToRgb(step.colour).map((channel) => channel * step.strength);
      return pipeline.linear([keep, keep, keep, 1], [r, g, b, 0]);
    }
  }
}

/** Down to blocks, then back up with nearest-neighbour so the blocks stay hard-edged. */
async function pixelate(image: RawImage): Promise<RawImage> {
  const block = Math.max(2, Math.round(Math.min(image.width, image.height) / 24));
  const small = await resizeRawImage(
    image,
    Math.max(1, Math.round(image.width / block)),
    Math.max(1, Math.round(image.height / block)),
    'fill',
  );
  return sharpToRaw(rawToSharp(small).resize(image.width, image.height, { fit: 'fill', kernel: 'nearest' }));
}
