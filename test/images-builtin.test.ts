// Image generation and editing on the built-in models, through the official `openai` SDK against a real
// gateway: real PNG/JPEG/WebP bytes, URLs fetched without a key, upload limits, expiry and traversal.
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { configSchema, type GatewayConfig } from '../server/config/config-schema.js';
import { sniffImageFormat } from '../server/core/image-types.js';
import { imageDirectories, makeImage, meanDifference, rawGet, settledFiles } from './helpers/images.js';
import { startGateway, testConfig, type TestGateway } from './helpers/start-gateway.js';

const maxUploadFileBytes = 1024 * 1024;
let gateway: TestGateway;
let openai: OpenAI;

/** The default config plus a narrow model, to see each image setting refuse what it does not list. */
const config: GatewayConfig = configSchema.parse({
  ...testConfig,
  models: [
    ...testConfig.models,
    {
      id: 'narrow-image',
      provider: 'builtin',
      upstream_model: 'image',
      capabilities: ['image_generation'],
      images: { sizes: ['256x256'], max_n: 1, response_formats: ['b64_json'], output_formats: ['png'] },
    },
  ],
});

before(async () => {
  gateway = await startGateway({ config, maxUploadFileBytes });
  openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
});
after(() => gateway.close());

const decode = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64');

describe('images.generate', () => {
  test('b64_json decodes to a PNG of exactly the asked size; created is now; the route is named', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { data: result, response } = await openai.images
      .generate({ model: 'builtin/image', prompt: 'A red sun over blue mountains', size: '512x512', response_format: 'b64_json' })
      .withResponse();
    assert.equal(result.data?.length, 1);
    const metadata = await sharp(decode(result.data![0]!.b64_json)).metadata();
    assert.deepEqual([metadata.format, metadata.width, metadata.height], ['png', 512, 512]);
    assert.ok(result.created >= before && result.created <= Math.floor(Date.now() / 1000) + 1, `created ${result.created}`);
    // 512x512 is none of the sizes OpenAI's answer can name, so the answer leaves `size` out (as `quality`, which is `auto`).
    assert.equal(result.size, undefined);
    assert.equal(result.quality, undefined);
    assert.equal(response.headers.get('x-gateway-model'), 'builtin/image');
  });

  test("size and quality are named when OpenAI's answer can name them", async () => {
    const result = await openai.images.generate({ model: 'builtin/image', prompt: 'A dot', size: '1024x1024', quality: 'high', response_format: 'b64_json' });
    assert.deepEqual([result.size, result.quality], ['1024x1024', 'high']);
  });

  test('is deterministic for a prompt and size, and differs for another prompt', async () => {
    const generate = (prompt: string) => openai.images.generate({ model: 'builtin/image', prompt, size: '256x256', response_format: 'b64_json' });
    const [first, again, other] = await Promise.all([generate('A green forest at night'), generate('A green forest at night'), generate('A yellow star')]);
    assert.equal(first.data![0]!.b64_json, again.data![0]!.b64_json);
    assert.ok((await meanDifference(decode(first.data![0]!.b64_json), decode(other.data![0]!.b64_json))) > 10);
  });

  test('url: a plain GET without a key downloads the image, with its content type', async () => {
    const result = await openai.images.generate({ model: 'builtin/image', prompt: 'A cat playing with yarn', size: '256x256', response_format: 'url' });
    const url = result.data![0]!.url!;
    assert.match(url, new RegExp(`^${gateway.origin}/v1/images/files/img_[0-9a-z]+_[0-9a-f]{32}\\.png$`));
    assert.equal(result.data![0]!.b64_json, undefined);
    const download = await fetch(url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'image/png');
    assert.match(download.headers.get('cache-control') ?? '', /^private, max-age=\d+$/);
    const metadata = await sharp(Buffer.from(await download.arrayBuffer())).metadata();
    assert.deepEqual([metadata.width, metadata.height], [256, 256]);
  });

  test('without response_format the model default (b64_json) applies; without model the first image model answers', async () => {
    const { data: result, response } = await openai.images.generate({ prompt: 'A blue circle', size: '256x256' }).withResponse();
    assert.ok(result.data![0]!.b64_json);
    assert.equal(response.headers.get('x-gateway-model'), 'builtin/image');
  });

  test('n=2 gives two different images', async () => {
    const result = await openai.images.generate({ model: 'builtin/image', prompt: 'Two boats on the sea', n: 2, size: '256x256', response_format: 'b64_json' });
    assert.equal(result.data?.length, 2);
    const [a, b] = result.data!.map((image) => decode(image.b64_json));
    assert.ok((await meanDifference(a!, b!)) > 1, 'the variants differ');
  });

  test('output_format jpeg and webp are those formats by their bytes', async () => {
    for (const format of ['jpeg', 'webp'] as const) {
      const result = await openai.images.generate({ model: 'builtin/image', prompt: 'A house', size: '256x256', output_format: format, response_format: 'url' });
      assert.match(result.data![0]!.url!, new RegExp(`\\.${format}$`));
      const bytes = Buffer.from(await (await fetch(result.data![0]!.url!)).arrayBuffer());
      assert.equal(sniffImageFormat(bytes), format);
    }
  });

  test('a value the model does not take is a 400 naming the parameter and listing the valid values', async () => {
    const cases: Array<[OpenAI.Images.ImageGenerateParams, string, RegExp]> = [
      [{ model: 'builtin/image', prompt: 'x', size: '999x999' }, 'size', /256x256, 512x512, 1024x1024/],
      [{ model: 'narrow-image', prompt: 'x', n: 2 }, 'n', /at most 1 image/],
      [{ model: 'narrow-image', prompt: 'x', response_format: 'url' }, 'response_format', /b64_json/],
      [{ model: 'narrow-image', prompt: 'x', output_format: 'webp' }, 'output_format', /png/],
      [{ model: 'builtin/image', prompt: 'x', output_format: 'jpeg', background: 'transparent' }, 'background', /jpeg/],
    ];
    for (const [params, param, valid] of cases) {
      const error = await openai.images.generate(params).catch((caught: unknown) => caught);
      assert.ok(error instanceof OpenAI.BadRequestError, `${param}: ${String(error)}`);
      assert.equal(error.param, param);
      assert.match(error.message, valid);
    }
  });

  test('a chat model cannot generate images, and an image model cannot chat', async () => {
    const notImage = await openai.images.generate({ model: 'builtin/echo', prompt: 'x' }).catch((caught: unknown) => caught);
    assert.ok(notImage instanceof OpenAI.BadRequestError);
    assert.match(notImage.message, /cannot generate images.*builtin\/image/);
    const notChat = await openai.chat.completions.create({ model: 'builtin/image', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    assert.ok(notChat instanceof OpenAI.BadRequestError);
    assert.equal(notChat.param, 'model');
  });
});

describe('images.edit', () => {
  const editModel = 'builtin/image-edit';

  for (const format of ['png', 'jpeg', 'webp'] as const) {
    test(`a ${format.toUpperCase()} comes back edited, visibly different and the same size`, async () => {
      const source = await makeImage(format, 96, 64);
      const result = await openai.images.edit({
        model: editModel,
        image: await toFile(source, `photo.${format}`, { type: `image/${format}` }),
        prompt: 'Make it black and white',
        response_format: 'b64_json',
      });
      const edited = decode(result.data![0]!.b64_json);
      const metadata = await sharp(edited).metadata();
      assert.deepEqual([metadata.width, metadata.height], [96, 64]);
      assert.equal(result.size, undefined, "the source's 96x64 is none of the sizes OpenAI's answer can name");
      assert.ok((await meanDifference(source, edited)) > 5, 'the edit changed the image');
    });
  }

  test('size resizes the edit to exactly that size', async () => {
    const result = await openai.images.edit({ model: editModel, image: await toFile(await makeImage('png'), 'a.png'), prompt: 'invert', size: '256x256' });
    const metadata = await sharp(decode(result.data![0]!.b64_json)).metadata();
    assert.deepEqual([metadata.width, metadata.height], [256, 256]);
  });

  test('several images (image[]) and a mask are all used', async () => {
    const [blue, red] = [await makeImage('png', 64, 64, '#2040ff'), await makeImage('png', 64, 64, '#ff2020')];
    const both = await openai.images.edit({
      model: editModel,
      image: [await toFile(blue, 'blue.png'), await toFile(red, 'red.png')],
      prompt: 'mirror',
      response_format: 'url',
    });
    const combined = Buffer.from(await (await fetch(both.data![0]!.url!)).arrayBuffer());
    const alone = await openai.images.edit({ model: editModel, image: await toFile(blue, 'blue.png'), prompt: 'mirror' });
    assert.ok((await meanDifference(combined, decode(alone.data![0]!.b64_json))) > 5, 'the second image shows in the result');

    // Opaque mask: nothing may change.
    const opaqueMask = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } }).png().toBuffer();
    const masked = await openai.images.edit({ model: editModel, image: await toFile(blue, 'blue.png'), mask: await toFile(opaqueMask, 'mask.png'), prompt: 'invert' });
    assert.ok((await meanDifference(blue, decode(masked.data![0]!.b64_json))) < 1, 'an opaque mask keeps the image');
  });

  test('a text file declared as image/png is a 400, and nothing is left on disk', async () => {
    const error = await openai.images
      .edit({ model: editModel, image: await toFile(Buffer.from('just some text, not an image'), 'notes.png', { type: 'image/png' }), prompt: 'x' })
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.param, 'image');
    assert.match(error.message, /not a PNG, JPEG or WebP image/);
    assert.deepEqual(await settledFiles(imageDirectories(gateway.dataDir).uploads), []);
  });

  test('a JPEG mask is a 400: masks are PNG', async () => {
    const error = await openai.images
      .edit({ model: editModel, image: await toFile(await makeImage('png'), 'a.png'), mask: await toFile(await makeImage('jpeg'), 'm.jpg'), prompt: 'x' })
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.param, 'mask');
  });

  test('a file over the upload limit is a 413, and nothing is left on disk', async () => {
    const oversized = Buffer.concat([await makeImage('png'), Buffer.alloc(maxUploadFileBytes + 1)]);
    const error = await openai.images.edit({ model: editModel, image: await toFile(oversized, 'big.png'), prompt: 'x' }).catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.APIError, String(error));
    assert.equal(error.status, 413);
    assert.equal(error.param, 'image');
    assert.deepEqual(await settledFiles(imageDirectories(gateway.dataDir).uploads), []);
  });

  test('a model that cannot edit is a 400 saying so', async () => {
    const error = await openai.images.edit({ model: 'builtin/image', image: await toFile(await makeImage('png'), 'a.png'), prompt: 'x' }).catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.BadRequestError);
    assert.equal(error.param, 'model');
    assert.match(error.message, /cannot edit images.*builtin\/image-edit/);
  });

  test('no image at all is a 400 naming image', async () => {
    const form = new FormData();
    form.append('prompt', 'x');
    form.append('model', editModel);
    const response = await fetch(`${gateway.origin}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${gateway.apiKey}` }, body: form });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: { param: string } }).error.param, 'image');
  });
});

describe('image files', () => {
  test('names the gateway never handed out, traversal attempts included, are 404 in the OpenAI shape', async () => {
    const result = await openai.images.generate({ model: 'builtin/image', prompt: 'A star', size: '256x256', response_format: 'url' });
    const name = result.data![0]!.url!.split('/').pop()!;
    const paths = [
      '/v1/images/files/../../../etc/passwd',
      '/v1/images/files/..%2F..%2F..%2Fetc%2Fpasswd',
      '/v1/images/files/%2e%2e%2f%2e%2e%2fgateway.sqlite',
      '/v1/images/files/..%5C..%5Cwindows.png',
      '/v1/images/files/img_abc.png',
      `/v1/images/files/${name.replace(/[0-9a-f]{4}\.png$/, '0000.png')}`,
      `/v1/images/files/${name.replace('.png', '.gif')}`,
      `/v1/images/files/.${name}.partial`,
      `/v1/images/files/${'a'.repeat(5000)}.png`,
    ];
    for (const path of paths) {
      const answer = await rawGet(gateway.origin, path);
      assert.equal(answer.status, 404, path);
      assert.equal(typeof (JSON.parse(answer.body) as { error: { message: string } }).error.message, 'string', path);
    }
  });

  test('edits leave no upload behind', async () => {
    await openai.images.edit({ model: 'builtin/image-edit', image: await toFile(await makeImage('png'), 'a.png'), prompt: 'blur' });
    assert.deepEqual(await settledFiles(imageDirectories(gateway.dataDir).uploads), []);
  });
});

describe('image URLs under public_base_url expire', () => {
  const publicBaseUrl = 'https://images.example.com';
  let shortLived: TestGateway;
  let client: OpenAI;
  before(async () => {
    shortLived = await startGateway({
      config: { ...config, public_base_url: `${publicBaseUrl}/`, images: { storage: 'auto', url_ttl_seconds: 1, sweep_interval_seconds: 1 } },
    });
    client = new OpenAI({ apiKey: shortLived.apiKey, baseURL: `${shortLived.origin}/v1`, maxRetries: 0 });
  });
  after(() => shortLived.close());

  const generateUrl = async () => {
    const result = await client.images.generate({ model: 'builtin/image', prompt: 'A moon', size: '256x256', response_format: 'url' });
    const publicUrl = result.data![0]!.url!;
    assert.match(publicUrl, new RegExp(`^${publicBaseUrl}/v1/images/files/img_`), 'the configured base, without a doubled slash');
    // The test reaches the gateway directly, as the proxy in front of it would.
    const url = publicUrl.replace(publicBaseUrl, shortLived.origin);
    return { url, path: join(imageDirectories(shortLived.dataDir).images, url.split('/').pop()!) };
  };

  test('after its TTL a URL is 404 and its file is gone from disk', async () => {
    const { url, path } = await generateUrl();
    assert.equal((await fetch(url)).status, 200);
    await access(path);
    await sleep(1_100);
    const expired = await fetch(url);
    assert.equal(expired.status, 404);
    await assert.rejects(access(path), { code: 'ENOENT' });
  });

  test('the sweeper deletes expired files nobody asks for', async () => {
    const { path } = await generateUrl();
    await access(path);
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (await access(path).then(() => true, () => false))) await sleep(100);
    await assert.rejects(access(path), { code: 'ENOENT' });
  });
});
