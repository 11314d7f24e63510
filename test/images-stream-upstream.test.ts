// Streamed image generation and editing over upstreams, through the official `openai` SDK: an `openai`
// upstream is asked to stream (`stream: true`, `partial_images`) and its events reach the client as it
// sent them, metered from its completed event; openai-compatible and Gemini upstreams answer whole, and
// each final image comes as one completed event.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { Response, type FormData } from 'undici';
import { collectImageEvents } from './helpers/collect-image-events.js';
import type { RecordedRequest } from './helpers/fake-upstream.js';
import { makeImage } from './helpers/images.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { defaultSettings, openAiImageStream } from './helpers/openai-image-stream.js';
import { fixtureJson } from './helpers/upstream-fixtures.js';
import { startUpstreamGateway, upstreamModel, type UpstreamGateway } from './helpers/upstream-gateway.js';

const imageModel = { capabilities: ['image_generation', 'image_edit'] };

/** Format and size as the image's header says (the recorded Gemini image is cut short after its header). */
async function described(b64: string): Promise<[string | undefined, number | undefined, number | undefined]> {
  const metadata = await sharp(Buffer.from(b64, 'base64')).metadata();
  return [metadata.format, metadata.width, metadata.height];
}

async function receivedForm(request: RecordedRequest): Promise<FormData> {
  return new Response(request.raw, { headers: { 'content-type': request.headers['content-type']! } }).formData();
}

describe('openai upstream: the image stream forwarded', () => {
  let setup: UpstreamGateway;
  before(async () => {
    setup = await startUpstreamGateway('openai', { model: imageModel });
  });
  after(() => setup.close());

  test('generation: stream and partial_images go upstream, every event comes back as sent, usage is metered from the completed event', async () => {
    const images = { partials: [await makeImage('png', 1024, 1536, '#101010'), await makeImage('png', 1024, 1536, '#505050')], final: await makeImage('png', 1024, 1536) };
    const sent = openAiImageStream('image_generation', images, { ...defaultSettings, size: '1024x1536' });
    setup.upstream.requests.length = 0;
    setup.upstream.enqueue({ sse: sent, chunkDelayMs: 5 });
    const { data: stream, response } = await setup.openai.images
      .generate({ model: 'test-model', prompt: 'A baby sea otter', size: '1024x1536', response_format: 'b64_json', stream: true, partial_images: 2 })
      .withResponse();
    const events = await collectImageEvents(stream, 'ImagesGenerationStreamEvent');

    const [request] = setup.upstream.requests;
    assert.equal(request!.url, '/v1/images/generations');
    assert.deepEqual(request!.json, { model: upstreamModel, prompt: 'A baby sea otter', size: '1024x1536', stream: true, partial_images: 2 });
    assert.deepEqual(events, sent.map((event) => JSON.parse(event.data)), 'the events as OpenAI sent them');
    for (const event of events) assert.deepEqual(await described(event.b64_json), ['png', 1024, 1536]);
    assert.equal(response.headers.get('x-gateway-provider'), 'fake');

    const row = await ledgerRow(setup.gateway.origin, setup.gateway.apiKey, response.headers.get('x-request-id')!);
    assert.deepEqual(
      [row.model, row.status, row.image_count, row.input_tokens, row.output_tokens, row.estimated],
      ['test-model', 200, 1, defaultSettings.usage.input_tokens, defaultSettings.usage.output_tokens, false],
    );
  });

  test('edit: the form carries stream=true and partial_images; image_edit events come back as sent', async () => {
    const source = await makeImage('png');
    const sent = openAiImageStream('image_edit', { partials: [await makeImage('png', 1024, 1024, '#202020')], final: await makeImage('png', 1024, 1024) });
    setup.upstream.requests.length = 0;
    setup.upstream.enqueue({ sse: sent });
    const stream = await setup.openai.images.edit({ model: 'test-model', image: await toFile(source, 'a.png'), prompt: 'Add a red hat', stream: true, partial_images: 1 });
    const events = await collectImageEvents(stream, 'ImagesEditStreamEvent');
    assert.deepEqual(events.map((event) => event.type), ['image_edit.partial_image', 'image_edit.completed']);
    assert.deepEqual(events, sent.map((event) => JSON.parse(event.data)));
    const form = await receivedForm(setup.upstream.requests[0]!);
    assert.deepEqual([form.get('model'), form.get('stream'), form.get('partial_images'), form.get('response_format')], [upstreamModel, 'true', '1', null]);
  });

  test('an upstream error after the first event reaches the SDK as an APIError, after the events before it', async () => {
    const [partial] = openAiImageStream('image_generation', { partials: [await makeImage('png', 1024, 1024)], final: await makeImage('png', 1024, 1024) });
    const failure = { type: 'error', error: { type: 'server_error', code: 'server_error', message: 'The server had an error while processing your request.', param: null } };
    setup.upstream.enqueue({ sse: [partial!, { event: 'error', data: JSON.stringify(failure) }] });
    const stream = await setup.openai.images.generate({ model: 'test-model', prompt: 'x', stream: true, partial_images: 1 });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().catch((caught: unknown) => caught);
    assert.deepEqual(seen, ['image_generation.partial_image']);
    assert.ok(error instanceof OpenAI.APIError, String(error));
    assert.match(error.message, /server had an error/);
  });

  test('an upstream that stops before the final image: the client gets an in-band error, not a silent end', async () => {
    const [partial] = openAiImageStream('image_generation', { partials: [await makeImage('png', 1024, 1024)], final: await makeImage('png', 1024, 1024) });
    setup.upstream.enqueue({ sse: [partial!] });
    const stream = await setup.openai.images.generate({ model: 'test-model', prompt: 'x', stream: true, partial_images: 1 });
    const error = await (async () => {
      for await (const _event of stream);
    })().catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.APIError, String(error));
    assert.match(error.message, /ended before the answer was complete/);
  });

  test("the upstream's 400 before the stream is an ordinary JSON error", async () => {
    setup.upstream.enqueue({ fixture: 'openai-images/error-unknown-parameter.json', protocol: 'openai-chat', status: 400 });
    const error = await setup.openai.images.generate({ model: 'test-model', prompt: 'x', stream: true }).catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.match(error.message, /Unknown parameter/);
  });
});

describe('openai-compatible upstream: answered whole, sent as completed events', () => {
  let setup: UpstreamGateway;
  before(async () => {
    setup = await startUpstreamGateway('openai-compatible', { model: imageModel });
  });
  after(() => setup.close());

  test('the upstream gets the JSON request without stream; its image comes as one completed event with its details', async () => {
    // The recorded answer's details, with a whole image in place of its shortened base64.
    const image = await makeImage('png', 1024, 1024);
    const recorded = { ...fixtureJson<Record<string, unknown>>('openai-images/edit-b64-json.json'), data: [{ b64_json: image.toString('base64') }] };
    setup.upstream.enqueue({ json: recorded });
    const { data: stream, response } = await setup.openai.images
      .generate({ model: 'test-model', prompt: 'A lighthouse', stream: true, partial_images: 2 })
      .withResponse();
    const events = await collectImageEvents(stream, 'ImagesGenerationStreamEvent');
    assert.deepEqual(setup.upstream.requests[0]!.json, { model: upstreamModel, prompt: 'A lighthouse' });
    assert.equal(events.length, 1);
    const [completed] = events as OpenAI.Images.ImageGenCompletedEvent[];
    assert.equal(completed!.type, 'image_generation.completed');
    assert.equal(completed!.b64_json, recorded.data[0]!.b64_json);
    assert.deepEqual([completed!.size, completed!.quality, completed!.background, completed!.output_format], ['1024x1024', 'high', 'opaque', 'png']);
    assert.deepEqual(await described(completed!.b64_json), ['png', 1024, 1024]);
    const row = await ledgerRow(setup.gateway.origin, setup.gateway.apiKey, response.headers.get('x-request-id')!);
    assert.deepEqual([row.status, row.image_count, row.estimated], [200, 1, true], 'no usage reported: the prompt is estimated');
  });
});

describe('gemini upstream: each image as one completed event', () => {
  let setup: UpstreamGateway;
  before(async () => {
    setup = await startUpstreamGateway('gemini', { model: imageModel });
  });
  after(() => setup.close());

  type GeminiImageFixture = { candidates: Array<{ content: { parts: Array<{ inlineData?: { data: string } }> } }> };

  test('generation: the inline image and the usage Gemini reported, metered once', async () => {
    const recorded = fixtureJson<GeminiImageFixture>('gemini/non-stream-image-output.json');
    setup.upstream.enqueue({ fixture: 'gemini/non-stream-image-output.json', protocol: 'gemini' });
    const { data: stream, response } = await setup.openai.images
      .generate({ model: 'test-model', prompt: 'An axolotl', size: '1024x1024', stream: true, partial_images: 1 })
      .withResponse();
    const events = await collectImageEvents(stream, 'ImagesGenerationStreamEvent');
    assert.equal(setup.upstream.requests[0]!.url, `/v1beta/models/${upstreamModel}:generateContent`);
    const inline = recorded.candidates[0]!.content.parts.find((part) => part.inlineData)!.inlineData!.data;
    assert.equal(events.length, 1);
    const completed = events[0] as OpenAI.Images.ImageGenCompletedEvent;
    assert.equal(completed.b64_json, inline);
    assert.equal(completed.output_format, 'png', 'read from the bytes: Gemini does not say');
    assert.deepEqual(await described(completed.b64_json), ['png', 1024, 1024]);
    const { input_tokens_details: split, ...tokens } = completed.usage;
    assert.deepEqual(tokens, { input_tokens: 10, output_tokens: 1304, total_tokens: 1314 });
    assert.ok(split.text_tokens + split.image_tokens <= 10, `the input split never exceeds the input: ${JSON.stringify(split)}`);
    const row = await ledgerRow(setup.gateway.origin, setup.gateway.apiKey, response.headers.get('x-request-id')!);
    assert.deepEqual([row.image_count, row.input_tokens, row.output_tokens, row.estimated], [1, 10, 1304, false]);
  });

  test('edit with n=2: two calls, two image_edit.completed events, one ledger row', async () => {
    setup.upstream.requests.length = 0;
    setup.upstream.enqueue({ fixture: 'gemini/non-stream-image-output.json', protocol: 'gemini' }, { fixture: 'gemini/non-stream-image-output.json', protocol: 'gemini' });
    const { data: stream, response } = await setup.openai.images
      .edit({ model: 'test-model', image: await toFile(await makeImage('png'), 'a.png'), prompt: 'Add a hat', n: 2, stream: true })
      .withResponse();
    const events = await collectImageEvents(stream, 'ImagesEditStreamEvent');
    assert.deepEqual(events.map((event) => event.type), ['image_edit.completed', 'image_edit.completed']);
    assert.equal(setup.upstream.requests.length, 2);
    const row = await ledgerRow(setup.gateway.origin, setup.gateway.apiKey, response.headers.get('x-request-id')!);
    assert.deepEqual([row.image_count, row.input_tokens, row.output_tokens], [2, 20, 2608]);
  });
});
