import { openAsBlob } from 'node:fs';
import { FormData } from 'undici';
import { ImageData, imageMimeTypes, type ImageEditRequest, type ImageResult, type SourceImage } from '../../core/image-types.js';
import type { CallContext, ImageProvider } from '../provider.js';
import { asRecord } from '../upstream/parse-json.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { openAIPath, type OpenAIPath } from './paths.js';
import { readImagesUsage } from './read-images-usage.js';

/** Largest image the gateway downloads when an upstream answers with a link instead of the bytes. */
const maxLinkedImageBytes = 64 * 1024 * 1024;

/**
 * The OpenAI Images API upstream (`/images/generations`, `/images/edits`), for OpenAI and the servers that
 * imitate it. The client's request goes on with the least rewriting: the model name, and no
 * `response_format`, because the gateway decides how its client gets the images (a GPT image model
 * refuses the parameter, and a DALL·E link would expire on OpenAI's schedule, not ours). Whatever the
 * upstream answers, bytes or a link, becomes bytes the gateway can hand out either way.
 */
export function createOpenAIImages(client: UpstreamClient, path: OpenAIPath = openAIPath): ImageProvider {
  return {
    async generate(request, context) {
      const { response_format: _decidedByGateway, ...body } = request.body;
      const json = await client.exchangeJson(path('/images/generations', context.upstreamModel), { ...body, model: context.upstreamModel }, context.signal);
      return readImagesResult(json, client, context);
    },
    async edit(request, context) {
      const reply = await client.postForm(path('/images/edits', context.upstreamModel), await toEditForm(request, context.upstreamModel), context.signal);
      return readImagesResult(await client.readJson(reply, context.signal), client, context);
    },
  };
}

/**
 * The edit as the official SDK would send it: one source image as `image`, several as repeated `image[]`
 * (never a lone `image[]`, which older servers do not read), `mask` alone. Files stream from disk under
 * neutral names, so a client's file name never reaches the upstream.
 */
export async function toEditForm(request: ImageEditRequest, upstreamModel: string): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(request.fields)) {
    if (name !== 'model' && name !== 'response_format') form.append(name, value);
  }
  form.append('model', upstreamModel);
  const imageField = request.images.length === 1 ? 'image' : 'image[]';
  for (const [index, image] of request.images.entries()) {
    form.append(imageField, await fileBlob(image), `image-${index + 1}.${image.format}`);
  }
  if (request.mask) form.append('mask', await fileBlob(request.mask), `mask.${request.mask.format}`);
  return form;
}

function fileBlob(image: SourceImage): Promise<Blob> {
  return openAsBlob(image.path, { type: imageMimeTypes[image.format] });
}

export async function readImagesResult(body: Record<string, unknown>, client: UpstreamClient, context: CallContext): Promise<ImageResult> {
  const items = Array.isArray(body.data) ? body.data.map((item) => asRecord(item) ?? {}) : [];
  const images = await Promise.all(
    items.map(async (item) => {
      const data =
        typeof item.b64_json === 'string'
          ? ImageData.fromBase64(item.b64_json)
          : ImageData.fromBytes(await client.download(String(item.url), context.signal, maxLinkedImageBytes));
      return { data, revisedPrompt: typeof item.revised_prompt === 'string' ? item.revised_prompt : undefined };
    }),
  );
  return {
    images,
    background: body.background === 'transparent' || body.background === 'opaque' ? body.background : undefined,
    outputFormat: body.output_format === 'png' || body.output_format === 'jpeg' || body.output_format === 'webp' ? body.output_format : undefined,
    quality: typeof body.quality === 'string' ? body.quality : undefined,
    size: typeof body.size === 'string' ? body.size : undefined,
    usage: readImagesUsage(body.usage),
  };
}
