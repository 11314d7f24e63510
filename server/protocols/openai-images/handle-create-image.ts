import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import type { ImageGenerationRequest } from '../../core/image-types.js';
import { answerWithImages } from './answer-with-images.js';
import { checkImageParams } from './check-image-params.js';
import type { ImageServices } from './image-services.js';
import { resolveImageModel } from './resolve-image-model.js';

/** `POST /v1/images/generations`. */
export function createImageHandler(services: ImageServices): OperationHandler<'createImage'> {
  return async (req, res) => {
    const body = req.body;
    const { access } = principalOf(res);
    const model = resolveImageModel(services.registry, body.model, 'image_generation', access);
    const { n, responseFormat } = checkImageParams(model, {
      n: body.n,
      size: body.size,
      responseFormat: body.response_format,
      outputFormat: body.output_format,
      background: body.background,
    });
    access.assertImageRequest('image_generation', { n, size: body.size ?? undefined });
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
