import { principalOf } from '../../access/principal-of.js';
import type { Request } from 'express';
import type { SuccessBody } from '../../../generated/operations.js';
import type { ImageResult } from '../../core/image-types.js';
import type { RegisteredModel } from '../../core/model-registry.js';
import type { RequestContext } from '../../core/request-context.js';
import { routeCall } from '../../core/route-call.js';
import type { CallContext, ImageProvider } from '../../providers/provider.js';
import type { ImageResponseFormat } from './check-image-params.js';
import { imageBaseUrl } from './image-base-url.js';
import { imageProviderOf } from './image-provider-of.js';
import type { ImageServices } from './image-services.js';
import { renderImagesResponse } from './render-images-response.js';

/** The answer of both image endpoints (the spec gives them one schema): it must be either's. */
type ImagesAnswer = SuccessBody<'createImage'> & SuccessBody<'createImageEdit'>;

/**
 * The part both image endpoints share, as a routed call (core/route-call.ts) of a model admitted already
 * (admit-image-request.ts): run the call over the model's deployments (retries and fallbacks as for chat),
 * then answer with the images as `b64_json` or stored behind URLs, stored once the route is described.
 */
export async function answerWithImages(
  req: Request,
  context: RequestContext,
  services: ImageServices,
  job: { model: RegisteredModel; responseFormat: ImageResponseFormat; call: (images: ImageProvider, context: CallContext) => Promise<ImageResult> },
): Promise<void> {
  const answer = await routeCall<ImageResult, ImagesAnswer, never>(
    services,
    {
      admit: () => job.model,
      attempt: async (target, signal) => job.call(imageProviderOf(target), { upstreamModel: target.deployment.upstreamModel, signal }),
      answer: (result, target) => ({
        target,
        droppedParams: [],
        kind: 'json',
        body: () =>
          renderImagesResponse(result, {
            responseFormat: job.responseFormat,
            storage: services.storage,
            ttlMs: services.urlTtlMs,
            baseUrl: imageBaseUrl(req, services.publicBaseUrl),
          }),
        usage: result.usage && { inputTokens: result.usage.inputTokens, cachedInputTokens: 0, outputTokens: result.usage.outputTokens, reasoningTokens: 0 },
        imageCount: result.images.length,
      }),
    },
    context,
    principalOf(context).access,
    context.work.signal,
  );
  await context.emit(answer);
}
