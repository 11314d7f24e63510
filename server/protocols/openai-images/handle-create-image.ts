import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import type { ImageGenerationRequest } from '../../core/image-types.js';
import { answerWithImages } from './answer-with-images.js';
import { admitImageRequest } from './admit-image-request.js';
import type { ImageServices } from './image-services.js';
import { streamImages } from './stream-images.js';

/** `POST /v1/images/generations`, JSON or (`stream: true`) `text/event-stream`. */
export function createImageHandler(services: ImageServices): OperationHandler<'createImage'> {
  return async (req, res, context) => {
    const { stream: _stream, partial_images: _partialImages, ...body } = req.body;
    const stream = req.body.stream === true;
    const { access } = principalOf(context);
    const { model, n, size, responseFormat } = admitImageRequest(services.registry, access, 'image_generation', body.model, {
      n: body.n,
      size: body.size,
      responseFormat: body.response_format,
      outputFormat: body.output_format,
      background: body.background,
      stream,
    });
    const request: ImageGenerationRequest = {
      prompt: body.prompt,
      n,
      size,
      quality: body.quality ?? undefined,
      outputFormat: body.output_format ?? undefined,
      outputCompression: body.output_compression ?? undefined,
      background: body.background ?? undefined,
      user: body.user,
      partialImages: req.body.partial_images ?? undefined,
      // A size the key's permissions imposed goes upstream too. Whether and how to stream is the
      // gateway's to decide per upstream, so `stream` and `partial_images` are not in the body.
      body: size === undefined ? (body as Record<string, unknown>) : { ...body, size },
    };
    if (stream) {
      await streamImages(context, services, { model, kind: 'image_generation', request });
      return;
    }
    await answerWithImages(req, context, services, { model, responseFormat, call: (images, context) => images.generate(request, context) });
  };
}
