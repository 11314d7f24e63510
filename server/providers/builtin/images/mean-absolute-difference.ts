/** How different two images look, as one number. */
import { CHANNELS, type RawImage } from './raw-image.js';

/**
 * The mean absolute difference of the red, green and blue channels, 0 (identical) to 255. Alpha is left
 * out: an edit changes what is seen, not which pixels exist.
 *
 * @throws Error when the sizes differ
 */
export function meanAbsoluteDifference(a: RawImage, b: RawImage): number {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`Cannot compare ${a.width}x${a.height} with ${b.width}x${b.height}`);
  }
  let total = 0;
  for (let i = 0; i < a.data.length; i += CHANNELS) {
    total += Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]);
  }
  const samples = (a.data.length / CHANNELS) * 3;
  return samples === 0 ? 0 : total / samples;
}
