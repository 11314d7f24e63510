import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMask } from './apply-mask.js';
import type { RawImage } from './raw-image.js';

const solid = (width: number, height: number, rgba: number[]): RawImage => ({
  data: Buffer.from(Array.from({ length: width * height }, () => rgba).flat()),
  width,
  height,
});

describe('applyMask', () => {
  it('takes edited pixels where the mask is transparent and original pixels where it is opaque', () => {
    const original = solid(2, 1, [10, 20, 30, 255]);
    const edited = solid(2, 1, [200, 100, 0, 255]);
    const mask: RawImage = { data: Buffer.from([0, 0, 0, 0, 0, 0, 0, 255]), width: 2, height: 1 };
    const result = applyMask(original, edited, mask);
    assert.deepEqual([...result.data], [200, 100, 0, 255, 10, 20, 30, 255]);
  });

  it('splits at alpha 128', () => {
    const original = solid(2, 1, [0, 0, 0, 255]);
    const edited = solid(2, 1, [255, 255, 255, 255]);
    const mask: RawImage = { data: Buffer.from([0, 0, 0, 127, 0, 0, 0, 128]), width: 2, height: 1 };
    assert.deepEqual([...applyMask(original, edited, mask).data], [255, 255, 255, 255, 0, 0, 0, 255]);
  });

  it('refuses images of different sizes', () => {
    assert.throws(() => applyMask(solid(2, 2, [0, 0, 0, 0]), solid(2, 2, [0, 0, 0, 0]), solid(1, 1, [0, 0, 0, 0])));
  });
});
