import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { meanAbsoluteDifference } from './mean-absolute-difference.js';
import { sharpToRaw } from './raw-image.js';
import { renderGeneration } from './render-generation.js';
import { renderPartialImages } from './render-partial-images.js';

/** A real built-in picture, with shapes of several sizes. */
const detailed = () => renderGeneration({ prompt: 'a red sun over blue mountains and a small boat', canvas: { width: 96, height: 64 }, variant: 0, format: 'png', transparent: false });

const collect = async (partials: AsyncIterable<Buffer>) => {
  const all: Buffer[] = [];
  for await (const partial of partials) all.push(partial);
  return all;
};

describe('renderPartialImages', () => {
  it('renders each partial at the final size and format, each closer to the final image than the one before', async () => {
    const final = await detailed();
    const partials = await collect(renderPartialImages(final, 3, { format: 'webp', alpha: false }));
    assert.equal(partials.length, 3);
    const target = await sharpToRaw(sharp(final));
    const differences: number[] = [];
    for (const partial of partials) {
      const metadata = await sharp(partial).metadata();
      assert.deepEqual([metadata.format, metadata.width, metadata.height], ['webp', 96, 64]);
      differences.push(meanAbsoluteDifference(target, await sharpToRaw(sharp(partial))));
    }
    assert.ok(differences[0]! > differences[1]! && differences[1]! > differences[2]! && differences[2]! > 1, `differences ${differences.join(', ')}`);
  });

  it('renders none for 0, and keeps transparency when asked', async () => {
    const final = await detailed();
    assert.deepEqual(await collect(renderPartialImages(final, 0, { format: 'png', alpha: false })), []);
    const clear = await sharp({ create: { width: 32, height: 32, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const [partial] = await collect(renderPartialImages(clear, 1, { format: 'png', alpha: true }));
    const stats = await sharp(partial).stats();
    assert.equal(stats.channels[3]!.max, 0);
  });
});
