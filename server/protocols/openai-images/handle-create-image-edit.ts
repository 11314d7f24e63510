import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import type { ImageEditRequest, ImageFormat } from '../../core/image-types.js';
import { answerWithImages } from './answer-with-images.js';
import { admitImageRequest } from './admit-image-request.js';
import type { ImageResponseFormat } from './check-image-params.js';
import type { ImageServices } from './image-services.js';
import { readSourceImages, type UploadedFiles } from './read-source-images.js';
import { streamImages } from './stream-images.js';

/**
 * `POST /v1/images/edits` (multipart), JSON or (`stream=true`) `text/event-stream`. The upload middleware
 * has written the files to disk and the validator has checked the text fields, which arrive as strings.
 */
export function createImageEditHandler(services: ImageServices): OperationHandler<'createImageEdit'> {
  return async (req, res, context) => {
    // Whether and how to stream is the gateway's to decide per upstream, so those fields do not go on.
    const { stream: streamField, partial_images: partialImages, ...given } = textFields(req.body as Record<string, unknown>);
    const stream = streamField === 'true';
    const { access } = principalOf(context);
    const outputFormat = given.output_format as ImageFormat | undefined;
    const { model, n, size, responseFormat } = admitImageRequest(services.registry, access, 'image_edit', given.model, {
      n: given.n === undefined ? undefined : Number(given.n),
      size: given.size,
      responseFormat: given.response_format as ImageResponseFormat | undefined,
      outputFormat,
      background: given.background,
      stream,
    });
    // A size the key's permissions imposed goes upstream too.
    const fields = size === undefined ? given : { ...given, size };
    const { images, mask } = await readSourceImages((req as { files?: UploadedFiles }).files);
    const request: ImageEditRequest = {
      prompt: fields.prompt!,
      n,
      size,
      quality: fields.quality,
      outputFormat,
      outputCompression: fields.output_compression === undefined ? undefined : Number(fields.output_compression),
      background: fields.background,
      user: fields.user,
      images,
      mask,
      fields,
      partialImages: partialImages === undefined ? undefined : Number(partialImages),
    };
    if (stream) {
      await streamImages(context, services, { model, kind: 'image_edit', request });
      return;
    }
    await answerWithImages(req, context, services, { model, responseFormat, call: (provider, context) => provider.edit(request, context) });
  };
}

/** The form's text fields; multer leaves a repeated field as an array, of which the last one counts. */
function textFields(body: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (typeof last === 'string') fields[name] = last;
  }
  return fields;
}
