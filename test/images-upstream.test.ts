// Image requests forwarded to fake OpenAI, OpenAI-compatible and Gemini upstreams replaying recorded
// traffic: what each upstream received (JSON and multipart, as it parsed them) and what the SDK got back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { Response, type FormData } from 'undici';
import { makeImage } from './helpers/images.js';
import { fixtureJson } from './helpers/upstream-fixtures.js';
import { startUpstreamGateway, upstreamKey, upstreamModel, type UpstreamGateway } from './helpers/upstream-gateway.js';
import type { RecordedRequest } from './helpers/fake-upstream.js';

const imageModel = { capabilities: ['image_generation', 'image_edit'] };

type ImagesFixture = { data: Array<{ b64_json?: string; url?: string; revised_prompt?: string }> } & Record<string, unknown>;

/** The multipart body the fake upstream received, parsed as a server would. */
async function receivedForm(request: RecordedRequest): Promise<FormData> {
  return new Response(request.raw, { headers: { 'content-type': request.headers['content-type']! } }).formData();
}

async function fileBytes(value: ReturnType<FormData['get']>): Promise<Buffer> {
  assert.ok(value instanceof Blob, 'a file part');
  return Buffer.from(await value.arrayBuffer());
}

for (const type of ['openai', 'openai-compatible'] as const) {
  describe(`${type} upstream: the Images API forwarded`, () => {
    let setup: UpstreamGateway;
    before(async () => {
      setup = await startUpstreamGateway(type, { model: imageModel });
    });
    after(() => setup.close());

    test('generation: the JSON goes on with the upstream model and without response_format; b64_json comes back untouched', async () => {
      const recorded = fixtureJson<ImagesFixture>('openai-images/generation-b64-json.json');
      setup.upstream.enqueue({ fixture: 'openai-images/generation-b64-json.json', protocol: 'openai-chat' });
      const result = await setup.openai.images.generate({
        model: 'test-model',
        prompt: 'A baby sea otter',
        n: 2,
        size: '1024x1024',
        quality: 'hd',
        style: 'natural',
        response_format: 'b64_json',
        user: 'user-1',
      });
      const [request] = setup.upstream.requests;
      assert.equal(request!.url, '/v1/images/generations');
      assert.equal(request!.headers.authorization, `Bearer ${upstreamKey}`);
      assert.deepEqual(request!.json, { model: upstreamModel, prompt: 'A baby sea otter', n: 2, size: '1024x1024', quality: 'hd', style: 'natural', user: 'user-1' });
      assert.deepEqual(result.data!.map((image) => image.b64_json), recorded.data.map((image) => image.b64_json));
      assert.equal(result.data![0]!.revised_prompt, recorded.data[0]!.revised_prompt);
    });

    test('generation as url: the upstream bytes are served by the gateway without a key', async () => {
      const recorded = fixtureJson<ImagesFixture>('openai-images/generation-b64-json.json');
      setup.upstream.enqueue({ fixture: 'openai-images/generation-b64-json.json', protocol: 'openai-chat' });
      const result = await setup.openai.images.generate({ model: 'test-model', prompt: 'A baby sea otter', response_format: 'url' });
      const url = result.data![0]!.url!;
      assert.ok(url.startsWith(`${setup.gateway.origin}/v1/images/files/`), url);
      const downloaded = Buffer.from(await (await fetch(url)).arrayBuffer());
      assert.deepEqual(downloaded, Buffer.from(recorded.data[0]!.b64_json!, 'base64'));
    });

    test('an upstream that answers with a link: the gateway fetches it without credentials', async () => {
      const png = await makeImage('png', 32, 32);
      setup.upstream.requests.length = 0;
      setup.upstream.enqueue(
        { json: { created: 1760092079, data: [{ url: `${setup.upstream.origin}/blob/img-3Ah2.png?sig=abc` }] } },
        { bytes: png, headers: { 'content-type': 'image/png' } },
      );
      const result = await setup.openai.images.generate({ model: 'test-model', prompt: 'A cat', response_format: 'b64_json' });
      assert.deepEqual(Buffer.from(result.data![0]!.b64_json!, 'base64'), png);
      const download = setup.upstream.requests[1]!;
      assert.equal(download.method, 'GET');
      assert.equal(download.url, '/blob/img-3Ah2.png?sig=abc');
      assert.equal(download.headers.authorization, undefined, 'the upstream key stays with the upstream API');
    });

    test('edit with one image: multipart with `image`, the upstream model, no response_format; details passed back', async () => {
      const recorded = fixtureJson<ImagesFixture>('openai-images/edit-b64-json.json');
      const source = await makeImage('jpeg');
      setup.upstream.requests.length = 0;
      setup.upstream.enqueue({ fixture: 'openai-images/edit-b64-json.json', protocol: 'openai-chat' });
      const result = await setup.openai.images.edit({
        model: 'test-model',
        image: await toFile(source, '../../etc/evil name.jpg', { type: 'image/jpeg' }),
        prompt: 'Add a red hat',
        n: 1,
        size: '1024x1024',
        quality: 'high',
        response_format: 'b64_json',
      });
      const [request] = setup.upstream.requests;
      assert.equal(request!.url, '/v1/images/edits');
      assert.equal(request!.headers.authorization, `Bearer ${upstreamKey}`);
      const form = await receivedForm(request!);
      assert.deepEqual(
        [...form.keys()].sort(),
        ['image', 'model', 'n', 'prompt', 'quality', 'size'],
      );
      assert.equal(form.get('model'), upstreamModel);
      assert.equal(form.get('prompt'), 'Add a red hat');
      const image = form.get('image') as ReturnType<FormData['get']> & { name: string; type: string };
      assert.equal(image.name, 'image-1.jpeg', 'a neutral name, never the client path');
      assert.equal(image.type, 'image/jpeg');
      assert.deepEqual(await fileBytes(image), source);
      assert.equal(result.data![0]!.b64_json, recorded.data[0]!.b64_json);
      assert.deepEqual([result.background, result.output_format, result.quality, result.size], ['opaque', 'png', 'high', '1024x1024']);
    });

    test('edit with several images and a mask: repeated `image[]` and `mask`, never a lone `image[]`', async () => {
      const [first, second, mask] = [await makeImage('png'), await makeImage('webp'), await makeImage('png', 64, 48, '#000000')];
      setup.upstream.requests.length = 0;
      setup.upstream.enqueue({ fixture: 'openai-images/edit-b64-json.json', protocol: 'openai-chat' });
      await setup.openai.images.edit({
        model: 'test-model',
        image: [await toFile(first, 'a.png'), await toFile(second, 'b.webp')],
        mask: await toFile(mask, 'mask.png'),
        prompt: 'Combine them',
      });
      const form = await receivedForm(setup.upstream.requests[0]!);
      assert.equal(form.get('image'), null);
      const images = form.getAll('image[]');
      assert.equal(images.length, 2);
      assert.deepEqual(await fileBytes(images[0]!), first);
      assert.deepEqual(await fileBytes(images[1]!), second);
      assert.equal((images[1] as Blob).type, 'image/webp');
      assert.deepEqual(await fileBytes(form.get('mask')), mask);
    });

    test("the upstream's 400 reaches the client in the OpenAI shape", async () => {
      setup.upstream.enqueue({ fixture: 'openai-images/error-unknown-parameter.json', protocol: 'openai-chat', status: 400 });
      const error = await setup.openai.images.generate({ model: 'test-model', prompt: 'x' }).catch((caught: unknown) => caught);
      assert.ok(error instanceof OpenAI.BadRequestError, String(error));
      assert.match(error.message, /Unknown parameter/);
    });
  });
}

describe('gemini upstream: images from an image-output model', () => {
  let setup: UpstreamGateway;
  before(async () => {
    setup = await startUpstreamGateway('gemini', { model: imageModel });
  });
  after(() => setup.close());

  type GeminiImageFixture = { candidates: Array<{ content: { parts: Array<{ inlineData?: { data: string } }> } }> };

  test('generation asks generateContent for an image and returns the inline data', async () => {
    const recorded = fixtureJson<GeminiImageFixture>('gemini/non-stream-image-output.json');
    setup.upstream.enqueue({ fixture: 'gemini/non-stream-image-output.json', protocol: 'gemini' });
    const result = await setup.openai.images.generate({ model: 'test-model', prompt: 'An axolotl', size: '1536x1024', response_format: 'b64_json' });
    const [request] = setup.upstream.requests;
    assert.equal(request!.url, `/v1beta/models/${upstreamModel}:generateContent`);
    assert.equal(request!.headers['x-goog-api-key'], upstreamKey);
    assert.deepEqual(request!.json, {
      contents: [{ role: 'user', parts: [{ text: 'An axolotl' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '3:2' } },
    });
    const inline = recorded.candidates[0]!.content.parts.find((part) => part.inlineData)!.inlineData!.data;
    assert.equal(result.data![0]!.b64_json, inline);
    assert.deepEqual(result.usage, { input_tokens: 10, output_tokens: 1304, total_tokens: 1314, input_tokens_details: { text_tokens: 10, image_tokens: 0 } });
  });

  test('edit sends the source image inline before the prompt; n=2 is two calls', async () => {
    const source = await makeImage('png');
    setup.upstream.requests.length = 0;
    setup.upstream.enqueue(
      { fixture: 'gemini/non-stream-image-output.json', protocol: 'gemini' },
      { fixture: 'gemini/non-stream-image-output.json', protocol: 'gemini' },
    );
    const result = await setup.openai.images.edit({ model: 'test-model', image: await toFile(source, 'a.png'), prompt: 'Add a hat', n: 2 });
    assert.equal(result.data?.length, 2);
    assert.equal(setup.upstream.requests.length, 2);
    const parts = (setup.upstream.requests[0]!.json as { contents: Array<{ parts: unknown[] }> }).contents[0]!.parts;
    assert.deepEqual(parts, [{ inlineData: { mimeType: 'image/png', data: source.toString('base64') } }, { text: 'Add a hat' }]);
  });

  test('an answer without an image is a 400 that says what the model said', async () => {
    setup.upstream.enqueue({ fixture: 'gemini/non-stream-text.json', protocol: 'gemini' });
    const error = await setup.openai.images.generate({ model: 'test-model', prompt: 'x' }).catch((caught: unknown) => caught);
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.match(error.message, /returned no image/);
  });
});
