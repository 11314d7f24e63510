import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import type { ImageGenerationRequest } from '../../core/image-types.js';
import { answerWithImages } from './answer-with-images.js';
import { admitImageRequest } from './admit-image-request.js';
import type { ImageServices } from './image-services.js';

/** `POST /v1/images/generations`. */
export function createImageHandler(services: ImageServices): OperationHandler<'createImage'> {
  return async (req, res, context) => {
    const body = req.body;
    const { access } = principalOf(context);
    const { model, n, size, responseFormat } = admitImageRequest(services.registry, access, 'image_generation', body.model, {
      n: body.n,
      size: body.size,
      responseFormat: body.response_format,
      outputFormat: body.output_format,
      background: body.background,
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
      // A size the key's permissions imposed goes upstream too.
      body: size === undefined ? (body as Record<string, unknown>) : { ...body, size },
    };
    await answerWithImages(req, res, context, services, { model, responseFormat, call: (images, context) => images.generate(request, context) });
  };
}
