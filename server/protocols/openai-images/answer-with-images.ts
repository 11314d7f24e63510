import { principalOf } from '../../access/principal-of.js';
import type { Request, Response } from 'express';
import type { ImageResult } from '../../core/image-types.js';
import type { RegisteredModel } from '../../core/model-registry.js';
import { describeRoute } from '../../http/describe-route.js';
import type { RequestContext } from '../../core/request-context.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import type { CallContext, ImageProvider } from '../../providers/provider.js';
import type { ImageResponseFormat } from './check-image-params.js';
import { imageBaseUrl } from './image-base-url.js';
import { imageProviderOf } from './image-provider-of.js';
import type { ImageServices } from './image-services.js';
import { renderImagesResponse } from './render-images-response.js';

/**
 * The part both image endpoints share: run the call over the model's deployments (retries and fallbacks
 * as for chat), then answer with the images as `b64_json` or stored behind URLs.
 */
export async function answerWithImages(
  req: Request,
  res: Response,
  context: RequestContext,
  services: ImageServices,
  job: { model: RegisteredModel; responseFormat: ImageResponseFormat; call: (images: ImageProvider, context: CallContext) => Promise<ImageResult> },
): Promise<void> {
  const signal = requestAbortSignal(res);
  const { target, result } = await services.router.run(
    job.model,
    async (target) => ({ target, result: await job.call(imageProviderOf(target), { upstreamModel: target.deployment.upstreamModel, signal }) }),
    signal,
    principalOf(context).access,
  );
  describeRoute(res, context, target);
  context.imageCount = result.images.length;
  if (result.usage) {
    context.usage = { inputTokens: result.usage.inputTokens, cachedInputTokens: 0, outputTokens: result.usage.outputTokens, reasoningTokens: 0 };
  }
  const body = await renderImagesResponse(result, {
    responseFormat: job.responseFormat,
    storage: services.storage,
    ttlMs: services.urlTtlMs,
    baseUrl: imageBaseUrl(req, services.publicBaseUrl),
  });
  res.json(body);
}
