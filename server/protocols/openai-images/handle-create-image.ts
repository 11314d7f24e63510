import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import type { ImageGenerationRequest } from '../../core/image-types.js';
import { answerWithImages } from './answer-with-images.js';
import { admitImageRequest } from './admit-image-request.js';
import type { ImageServices } from './image-services.js';

/** `POST /v1/images/generations`. */
export function createImageHandler(services: ImageServices): OperationHandler<'createImage'> {
  return async (req, res) => {
    const body = req.body;
    const { access } = principalOf(res);
    const { model, n, responseFormat } = admitImageRequest(services.registry, access, 'image_generation', body.model, {
      n: body.n,
      size: body.size,
      responseFormat: body.response_format,
      outputFormat: body.output_format,
      background: body.background,
    });
    const request: ImageGenerationRequest = {
      prompt: body.prompt,
      n,
      size: body.size ?? undefined,
      quality: body.quality ?? undefined,
      outputFormat: body.output_format ?? undefined,
      outputCompression: body.output_compression ?? undefined,
      background: body.background ?? undefined,
      user: body.user,
      body: body as Record<string, unknown>,
    };
    await answerWithImages(req, res, services, { model, responseFormat, call: (images, context) => images.generate(request, context) });
  };
}
