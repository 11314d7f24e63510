// Streamed image generation and editing (`stream: true`, `partial_images`) on the built-in models, through
// the official `openai` SDK: OpenAI's event types in order, real partial images that decode to the asked
// size and come closer to the final image each time, and one ledger row per request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { countTextTokens } from '../server/core/token-counter.js';
import { collectImageEvents, type ImageStreamEvent } from './helpers/collect-image-events.js';
import { makeImage, meanDifference } from './helpers/images.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { parseNamedSse } from './helpers/named-sse.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
let openai: OpenAI;

before(async () => {
  gateway = await startGateway();
  openai = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
});
after(() => gateway.close());

const decode = (event: ImageStreamEvent) => Buffer.from(event.b64_json, 'base64');

async function assertImage(bytes: Buffer, format: string, width: number, height: number): Promise<void> {
  const metadata = await sharp(bytes).metadata();
  assert.deepEqual([metadata.format, metadata.width, metadata.height], [format, width, height]);
}

describe('images.generate with stream: true', () => {
  test('partial_images: 2 sends two real partial images, each closer to the final one, then the final image; one ledger row', async () => {
    const prompt = 'A red sun over blue mountains';
    const { data: stream, response } = await openai.images
      .generate({ model: 'builtin/image', prompt, size: '1024x1024', stream: true, partial_images: 2 })
      .withResponse();
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(response.headers.get('x-gateway-model'), 'builtin/image');
    const events = await collectImageEvents(stream, 'ImagesGenerationStreamEvent');
    assert.deepEqual(
      events.map((event) => [event.type, 'partial_image_index' in event ? event.partial_image_index : undefined]),
      [
        ['image_generation.partial_image', 0],
        ['image_generation.partial_image', 1],
        ['image_generation.completed', undefined],
      ],
    );
    for (const event of events) await assertImage(decode(event), 'png', 1024, 1024);
    const final = decode(events[2]!);
    const [first, second] = [await meanDifference(final, decode(events[0]!)), await meanDifference(final, decode(events[1]!))];
    assert.ok(first > second && second > 0.1, `each partial is closer to the final image (differences ${first}, ${second})`);

    // The final image is the one the same request without streaming gets.
    const whole = await openai.images.generate({ model: 'builtin/image', prompt, size: '1024x1024' });
    assert.equal(events[2]!.b64_json, whole.data![0]!.b64_json);

    const completed = events[2] as OpenAI.Images.ImageGenCompletedEvent;
    assert.deepEqual([completed.size, completed.quality, completed.background, completed.output_format], ['1024x1024', 'auto', 'opaque', 'png']);
    const promptTokens = countTextTokens(prompt);
    assert.deepEqual(completed.usage, { input_tokens: promptTokens, output_tokens: 0, total_tokens: promptTokens, input_tokens_details: { text_tokens: promptTokens, image_tokens: 0 } });

    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.deepEqual(
      [row.model, row.protocol, row.endpoint, row.status, row.image_count, row.input_tokens, row.output_tokens, row.estimated],
      ['builtin/image', 'openai-images', 'POST /v1/images/generations', 200, 1, promptTokens, 0, false],
    );
  });

  test('the frames are `event: <type>` and `data: <json>`, as OpenAI sends them', async () => {
    const response = await fetch(`${gateway.origin}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'builtin/image', prompt: 'A green field', size: '256x256', stream: true, partial_images: 1 }),
    });
    const frames = parseNamedSse<{ type: string }>(await response.text());
    assert.deepEqual(frames.map((frame) => frame.event), ['image_generation.partial_image', 'image_generation.completed']);
    for (const frame of frames) assert.equal(frame.data.type, frame.event);
  });

  test('a size outside OpenAI’s three is `auto` in the events, while the images have the asked size; jpeg and webp partials', async () => {
    for (const format of ['jpeg', 'webp'] as const) {
      const stream = await openai.images.generate({ model: 'builtin/image', prompt: 'A house by a lake', size: '256x256', output_format: format, stream: true, partial_images: 3 });
      const events = await collectImageEvents(stream, 'ImagesGenerationStreamEvent');
      assert.equal(events.length, 4);
      for (const event of events) {
        assert.deepEqual([event.size, event.output_format], ['auto', format]);
        await assertImage(decode(event), format, 256, 256);
      }
    }
  });

  test('without partial_images only the final image comes; n: 2 sends each image with its own partials', async () => {
    const alone = await collectImageEvents(await openai.images.generate({ model: 'builtin/image', prompt: 'A boat', size: '256x256', stream: true }), 'ImagesGenerationStreamEvent');
    assert.deepEqual(alone.map((event) => event.type), ['image_generation.completed']);

    const { data: stream, response } = await openai.images
      .generate({ model: 'builtin/image', prompt: 'Two boats', size: '256x256', n: 2, stream: true, partial_images: 1 })
      .withResponse();
    const two = await collectImageEvents(stream, 'ImagesGenerationStreamEvent');
    assert.deepEqual(two.map((event) => event.type), ['image_generation.partial_image', 'image_generation.completed', 'image_generation.partial_image', 'image_generation.completed']);
    assert.notEqual(two[1]!.b64_json, two[3]!.b64_json);
    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.equal(row.image_count, 2);
  });

  test('a transparent background stays transparent in the partial images', async () => {
    const events = await collectImageEvents(
      await openai.images.generate({ model: 'builtin/image', prompt: 'A yellow star', size: '256x256', background: 'transparent', stream: true, partial_images: 1 }),
      'ImagesGenerationStreamEvent',
    );
    assert.equal(events[0]!.background, 'transparent');
    const stats = await sharp(decode(events[0]!)).stats();
    assert.ok(stats.channels.length === 4 && stats.channels[3]!.min < 255, 'the partial image has transparent pixels');
  });

  test('errors found before the stream starts are ordinary JSON errors: response_format url cannot be streamed', async () => {
    const error = await openai.images
      .generate({ model: 'builtin/image', prompt: 'x', stream: true, response_format: 'url' })
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.param, 'response_format');
    const tooMany = await fetch(`${gateway.origin}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'builtin/image', prompt: 'x', stream: true, partial_images: 4 }),
    });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.headers.get('content-type') ?? '', /^application\/json/);
  });
});

describe('images.edit with stream: true', () => {
  test('partial_images: 1 sends an image_edit partial image, then the edited image, both of the asked size; one ledger row', async () => {
    const prompt = 'Make it black and white';
    const { data: stream, response } = await openai.images
      .edit({ model: 'builtin/image-edit', image: await toFile(await makeImage('png', 96, 64), 'photo.png'), prompt, size: '1024x1536', stream: true, partial_images: 1 })
      .withResponse();
    const events = await collectImageEvents(stream, 'ImagesEditStreamEvent');
    assert.deepEqual(events.map((event) => event.type), ['image_edit.partial_image', 'image_edit.completed']);
    for (const event of events) await assertImage(decode(event), 'png', 1024, 1536);
    assert.ok((await meanDifference(decode(events[1]!), decode(events[0]!))) > 0.1, 'the partial image is not yet the final one');
    const completed = events[1] as OpenAI.Images.ImageEditCompletedEvent;
    assert.equal(completed.size, '1024x1536');
    assert.deepEqual(completed.usage.input_tokens_details, { text_tokens: countTextTokens(prompt), image_tokens: 85 });

    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.deepEqual([row.endpoint, row.status, row.image_count, row.input_tokens, row.estimated], ['POST /v1/images/edits', 200, 1, countTextTokens(prompt) + 85, false]);
  });

  test('keeping the source size (not one of OpenAI’s) says `auto`; stream=false answers JSON', async () => {
    const image = await toFile(await makeImage('webp', 40, 30), 'small.webp');
    const events = await collectImageEvents(await openai.images.edit({ model: 'builtin/image-edit', image, prompt: 'invert', output_format: 'webp', stream: true }), 'ImagesEditStreamEvent');
    assert.deepEqual(events.map((event) => [event.type, event.size, event.output_format]), [['image_edit.completed', 'auto', 'webp']]);
    await assertImage(decode(events[0]!), 'webp', 40, 30);

    const json = await openai.images.edit({ model: 'builtin/image-edit', image: await toFile(await makeImage('png'), 'a.png'), prompt: 'invert', stream: false });
    assert.ok(json.data![0]!.b64_json);
  });
});
