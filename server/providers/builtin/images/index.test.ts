import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import {
  sniffImageFormat,
  type ImageEditRequest,
  type ImageFormat,
  type ImageGenerationRequest,
  type SourceImage,
} from '../../../core/image-types.js';
import { GatewayError } from '../../../core/gateway-error.js';
import type { CallContext } from '../../provider.js';
import { createBuiltinImages } from './index.js';
import { meanAbsoluteDifference } from './mean-absolute-difference.js';
import { sharpToRaw, type RawImage } from './raw-image.js';

const images = createBuiltinImages();
const context = (): CallContext => ({ upstreamModel: 'image', signal: new AbortController().signal });
const generation = (prompt: string, extra: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest => ({
  prompt,
  n: 1,
  size: '64x64',
  body: {},
  ...extra,
});
const decode = (bytes: Buffer | string): Promise<RawImage> => sharpToRaw(sharp(bytes));
const isParamError = (param: string) => (error: unknown) =>
  error instanceof GatewayError && error.status === 400 && error.param === param;

/** A textured picture, so that blur, sharpen and the like all have something to change. */
const sourceSvg = (width: number, height: number, colours: [string, string]) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><linearGradient id="g"><stop offset="0" stop-color="${colours[0]}"/><stop offset="1" stop-color="${colours[1]}"/></linearGradient></defs>` +
      `<rect width="${width}" height="${height}" fill="url(#g)"/>` +
      `<circle cx="${width / 3}" cy="${height / 2}" r="${width / 5}" fill="#ffffff"/>` +
      `<rect x="${width / 2}" y="${height / 4}" width="${width / 4}" height="${height / 3}" fill="#000000"/></svg>`,
  );

let dir: string;
async function writeSource(name: string, format: ImageFormat, pipeline: sharp.Sharp): Promise<SourceImage> {
  const path = join(dir, name);
  const encoded = format === 'png' ? pipeline.png() : format === 'jpeg' ? pipeline.jpeg() : pipeline.webp();
  const info = await encoded.toFile(path);
  return { path, format, filename: name, bytes: info.size };
}
const picture = (width = 64, height = 64, colours: [string, string] = ['#3366cc', '#ffcc33']) =>
  sharp(sourceSvg(width, height, colours));
const editRequest = (sources: SourceImage[], prompt: string, extra: Partial<ImageEditRequest> = {}): ImageEditRequest => ({
  prompt,
  n: 1,
  images: sources,
  fields: {},
  ...extra,
});

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'builtin-images-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createBuiltinImages().generate', () => {
  it('draws a PNG of exactly the asked size and reports it', async () => {
    const result = await images.generate(generation('a sun over the sea', { size: '96x40' }), context());
    assert.equal(result.images.length, 1);
    const bytes = result.images[0].data.bytes();
    const metadata = await sharp(bytes).metadata();
    assert.deepEqual([metadata.format, metadata.width, metadata.height], ['png', 96, 40]);
    assert.equal(result.size, '96x40');
    assert.equal(result.outputFormat, 'png');
    assert.equal(result.background, 'opaque');
    assert.equal(result.quality, 'auto');
  });

  it('draws 1024x1024 when the size is absent or auto', async () => {
    for (const size of [undefined, 'auto']) {
      const result = await images.generate(generation('a cat', { size }), context());
      const metadata = await sharp(result.images[0].data.bytes()).metadata();
      assert.deepEqual([metadata.width, metadata.height, result.size], [1024, 1024, '1024x1024']);
    }
  });

  it('is byte-identical for the same prompt and size, and differs for another prompt', async () => {
    const first = await images.generate(generation('a red house on a green hill'), context());
    const again = await images.generate(generation('a red house on a green hill'), context());
    const other = await images.generate(generation('blue stars at night'), context());
    assert.deepEqual(first.images[0].data.bytes(), again.images[0].data.bytes());
    const difference = meanAbsoluteDifference(await decode(first.images[0].data.bytes()), await decode(other.images[0].data.bytes()));
    assert.ok(difference > 10, `difference ${difference}`);
  });

  it('makes n visibly different variants', async () => {
    const result = await images.generate(generation('an abstract idea', { n: 3 }), context());
    assert.equal(result.images.length, 3);
    const decoded = await Promise.all(result.images.map((image) => decode(image.data.bytes())));
    for (const [a, b] of [[0, 1], [0, 2], [1, 2]]) {
      const difference = meanAbsoluteDifference(decoded[a], decoded[b]);
      assert.ok(difference > 5, `variants ${a} and ${b} differ by ${difference}`);
    }
  });

  it('writes JPEG and WebP when asked', async () => {
    for (const outputFormat of ['jpeg', 'webp'] as const) {
      const result = await images.generate(generation('a purple planet', { outputFormat, outputCompression: 60 }), context());
      assert.equal(sniffImageFormat(result.images[0].data.bytes()), outputFormat);
      assert.equal(result.outputFormat, outputFormat);
    }
  });

  it('leaves the background transparent when asked, except in JPEG', async () => {
    const png = await images.generate(generation('a yellow ball', { background: 'transparent' }), context());
    assert.equal(png.background, 'transparent');
    const raw = await sharp(png.images[0].data.bytes()).metadata();
    assert.equal(raw.hasAlpha, true);
    const pixels = await decode(png.images[0].data.bytes());
    assert.ok(pixels.data.some((value, i) => i % 4 === 3 && value === 0), 'some pixel is fully transparent');

    const jpeg = await images.generate(generation('a yellow ball', { background: 'transparent', outputFormat: 'jpeg' }), context());
    assert.equal(jpeg.background, 'opaque');
  });

  it('refuses sizes outside 16..4096', async () => {
    await assert.rejects(images.generate(generation('x', { size: '8x8' }), context()), isParamError('size'));
    await assert.rejects(images.generate(generation('x', { size: '5000x64' }), context()), isParamError('size'));
  });

  it('stops when the call is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(images.generate(generation('x'), { upstreamModel: 'image', signal: controller.signal }), {
      name: 'AbortError',
    });
  });
});

describe('createBuiltinImages().edit', () => {
  it('visibly changes PNG, JPEG and WebP sources at their size', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const source = await writeSource(`source.${format}`, format, picture(64, 48));
      const result = await images.edit(editRequest([source], 'make it look nicer'), context());
      const output = await decode(result.images[0].data.bytes());
      const input = await decode(source.path);
      assert.deepEqual([output.width, output.height, result.size], [64, 48, '64x48'], format);
      const difference = meanAbsoluteDifference(input, output);
      assert.ok(difference > 5, `${format} differs by ${difference}`);
    }
  });

  it('applies the transformations the prompt names', async () => {
    const source = await writeSource('named.png', 'png', picture());
    const input = await decode(source.path);
    for (const prompt of ['black and white', 'sepia', 'invert', 'blur', 'sharpen', 'brighter', 'darker', 'vivid', 'muted', 'flip', 'mirror', 'upside down', 'pixelate', 'red']) {
      const result = await images.edit(editRequest([source], prompt), context());
      const difference = meanAbsoluteDifference(input, await decode(result.images[0].data.bytes()));
      assert.ok(difference > 1, `${prompt} differs by ${difference}`);
    }
    const grey = await decode((await images.edit(editRequest([source], 'monochrome'), context())).images[0].data.bytes());
    for (let i = 0; i < grey.data.length; i += 4) assert.ok(grey.data[i] === grey.data[i + 1] && grey.data[i + 1] === grey.data[i + 2]);
  });

  it('resizes to the asked size', async () => {
    const source = await writeSource('resize.png', 'png', picture(64, 64));
    const result = await images.edit(editRequest([source], 'vintage', { size: '32x48', outputFormat: 'webp' }), context());
    const metadata = await sharp(result.images[0].data.bytes()).metadata();
    assert.deepEqual([metadata.format, metadata.width, metadata.height, result.size], ['webp', 32, 48, '32x48']);
  });

  it('changes only where the mask is transparent', async () => {
    const source = await writeSource('masked.png', 'png', picture(64, 64));
    // Left half opaque (keep), right half transparent (edit); half the size, to show the mask is resized.
    const maskSvg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect width="16" height="32" fill="#000"/></svg>',
    );
    const mask = await writeSource('mask.png', 'png', sharp(maskSvg));
    const result = await images.edit(editRequest([source], 'invert', { mask }), context());
    const input = await decode(source.path);
    const output = await decode(result.images[0].data.bytes());
    const half = (image: RawImage, side: 'left' | 'right'): RawImage => {
      const data = Buffer.alloc((image.width / 2) * image.height * 4);
      for (let y = 0; y < image.height; y++) {
        const start = (y * image.width + (side === 'left' ? 0 : image.width / 2)) * 4;
        image.data.copy(data, (y * image.width * 4) / 2, start, start + image.width * 2);
      }
      return { data, width: image.width / 2, height: image.height };
    };
    // Columns next to the boundary may be blended by the mask's resize, so compare away from it.
    assert.equal(meanAbsoluteDifference(half(input, 'left'), half(output, 'left')) < 2, true);
    assert.ok(meanAbsoluteDifference(half(input, 'right'), half(output, 'right')) > 40);
  });

  it('refuses a mask without alpha', async () => {
    const source = await writeSource('for-mask.png', 'png', picture());
    const mask = await writeSource('opaque-mask.jpeg', 'jpeg', picture());
    await assert.rejects(images.edit(editRequest([source], 'blur', { mask }), context()), isParamError('mask'));
  });

  it('shows every source, side by side', async () => {
    const red = await writeSource('red.png', 'png', sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff0000' } }));
    const blue = await writeSource('blue.jpeg', 'jpeg', sharp({ create: { width: 40, height: 80, channels: 3, background: '#0000ff' } }));
    // Inverted, red turns cyan and blue turns yellow: each column keeps its own source.
    const result = await images.edit(editRequest([red, blue], 'invert'), context());
    const output = await decode(result.images[0].data.bytes());
    assert.deepEqual([output.width, output.height], [64, 64]);
    const pixel = (x: number, y: number) => [...output.data.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 3)];
    const [leftRed, leftGreen, leftBlue] = pixel(10, 32);
    const [rightRed, rightGreen, rightBlue] = pixel(54, 32);
    assert.ok(leftRed < 30 && leftGreen > 225 && leftBlue > 225, `left ${pixel(10, 32)}`);
    assert.ok(rightRed > 225 && rightGreen > 225 && rightBlue < 30, `right ${pixel(54, 32)}`);
  });

  it('makes n visibly different variants', async () => {
    const source = await writeSource('variants.png', 'png', picture());
    const result = await images.edit(editRequest([source], 'greyscale', { n: 3 }), context());
    const decoded = await Promise.all(result.images.map((image) => decode(image.data.bytes())));
    for (const [a, b] of [[0, 1], [0, 2], [1, 2]]) {
      assert.ok(meanAbsoluteDifference(decoded[a], decoded[b]) > 5, `variants ${a} and ${b}`);
    }
  });

  it('keeps a transparent source transparent in PNG and flattens it in JPEG', async () => {
    const clear = sharp({ create: { width: 32, height: 32, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 0.3 } } });
    const source = await writeSource('clear.png', 'png', clear);
    const png = await images.edit(editRequest([source], 'vivid'), context());
    assert.equal(png.background, 'transparent');
    const jpeg = await images.edit(editRequest([source], 'vivid', { outputFormat: 'jpeg' }), context());
    assert.equal(jpeg.background, 'opaque');
    assert.equal(sniffImageFormat(jpeg.images[0].data.bytes()), 'jpeg');
  });

  it('refuses a source that is not an image', async () => {
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'not an image at all');
    const source: SourceImage = { path, format: 'png', filename: 'notes.txt', bytes: 19 };
    await assert.rejects(images.edit(editRequest([source], 'blur'), context()), isParamError('image'));
  });

  it('refuses a source over 40 million pixels without decoding it', async () => {
    const path = join(dir, 'huge.png');
    await writeFile(path, pngHeader(8000, 8000));
    const source: SourceImage = { path, format: 'png', filename: 'huge.png', bytes: 33 };
    await assert.rejects(images.edit(editRequest([source], 'blur'), context()), (error: unknown) => {
      return isParamError('image')(error) && /too large/.test((error as Error).message);
    });
  });

  it('refuses a bad size before reading the sources', async () => {
    const source: SourceImage = { path: join(dir, 'missing.png'), format: 'png', filename: 'missing.png', bytes: 0 };
    await assert.rejects(images.edit(editRequest([source], 'blur', { size: '10x10' }), context()), isParamError('size'));
  });
});

/** A PNG that claims `width` x `height` but holds no pixels: enough for sharp to read the dimensions. */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])) >>> 0);
    return Buffer.concat([head, Buffer.from(type), data, tail]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(0))), chunk('IEND', Buffer.alloc(0))]);
}
