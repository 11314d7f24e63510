import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { sniffImageFormat } from '../../../core/image-types.js';
import { encodeImage, outputQuality } from './encode-image.js';

const halfTransparent = () =>
  sharp({ create: { width: 16, height: 16, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } });

describe('encodeImage', () => {
  it('writes each format', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const bytes = await encodeImage(halfTransparent(), { format, alpha: true });
      assert.equal(sniffImageFormat(bytes), format);
    }
  });

  it('keeps alpha only when asked and possible', async () => {
    const png = await sharp(await encodeImage(halfTransparent(), { format: 'png', alpha: true })).metadata();
    assert.equal(png.hasAlpha, true);
    const flat = await sharp(await encodeImage(halfTransparent(), { format: 'png', alpha: false })).metadata();
    assert.equal(flat.hasAlpha, false);
    const jpeg = await sharp(await encodeImage(halfTransparent(), { format: 'jpeg', alpha: true })).metadata();
    assert.equal(jpeg.hasAlpha, false);
  });

  it('uses compression as quality', async () => {
    const low = await encodeImage(halfTransparent(), { format: 'jpeg', compression: 5, alpha: false });
    const high = await encodeImage(halfTransparent(), { format: 'jpeg', compression: 100, alpha: false });
    assert.notDeepEqual(low, high);
  });
});

describe('outputQuality', () => {
  it('clamps to what sharp accepts and defaults when absent', () => {
    assert.equal(outputQuality(0), 1);
    assert.equal(outputQuality(150), 100);
    assert.equal(outputQuality(55.4), 55);
    assert.equal(outputQuality(undefined), 90);
  });
});
