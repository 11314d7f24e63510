import type { Request, Response } from 'express';
import { principalOf } from '../../access/principal-of.js';
import { imageResultEvents } from '../../core/image-result-events.js';
import type { ImageEditRequest, ImageGenerationRequest, ImageResult, ImageStreamEvent } from '../../core/image-types.js';
import type { RegisteredModel } from '../../core/model-registry.js';
import { prefetchFirstEvent } from '../../core/prefetch-first-event.js';
import { describeRoute } from '../../http/describe-route.js';
import type { RequestContext } from '../../core/request-context.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { SseWriter } from '../../http/sse-writer.js';
import type { CallContext, ImageProvider } from '../../providers/provider.js';
import { imageProviderOf } from './image-provider-of.js';
import { imageStreamErrorEvent } from './image-stream-error-event.js';
import type { ImageServices } from './image-services.js';
import { renderImageStreamEvent } from './render-image-stream-event.js';
import { sendStream } from '../../http/send-stream.js';
import { observeStream } from '../../observability/metrics/observe-stream.js';

/** A streamed request of either endpoint; the kind names its events. */
export type ImageStreamJob = { kind: 'image_generation'; request: ImageGenerationRequest } | { kind: 'image_edit'; request: ImageEditRequest };

/**
 * `stream: true` on either image endpoint: the call runs over the model's deployments like any other
 * (retries and fallbacks until its first event is in hand), then every event goes to the client as it
 * comes, never collected. A provider that cannot stream sends each image as one completed event. A
 * failure after the 200 is an in-band `error` event, as OpenAI sends one.
 */
export async function streamImages(req: Request, res: Response, context: RequestContext, services: ImageServices, job: ImageStreamJob & { model: RegisteredModel }): Promise<void> {
  const signal = requestAbortSignal(res);
  const { target, events } = await services.router.run(
    job.model,
    async (target) => {
      const started = startImageStream(imageProviderOf(target), job, { upstreamModel: target.deployment.upstreamModel, signal });
      return { target, events: await prefetchFirstEvent(started) };
    },
    signal,
    principalOf(context).access,
  );
  describeRoute(res, context, target);
  await sendStream(observeStream(res, new SseWriter(res)), events, {
    frameOf: (event) => {
      meterImage(context, event);
      return renderImageStreamEvent(event, job.kind);
    },
    errorFrames: (error) => [{ data: imageStreamErrorEvent(error), event: 'error' }],
  });
}

function startImageStream(images: ImageProvider, job: ImageStreamJob, context: CallContext): AsyncIterable<ImageStreamEvent> {
  if (job.kind === 'image_generation') {
    return images.streaming?.generate(job.request, context) ?? whole(() => images.generate(job.request, context));
  }
  return images.streaming?.edit(job.request, context) ?? whole(() => images.edit(job.request, context));
}

async function* whole(make: () => Promise<ImageResult>): AsyncGenerator<ImageStreamEvent> {
  yield* imageResultEvents(await make());
}

/**
 * The ledger counts each final image as it is made, so a stream the client leaves early is still billed
 * for what the upstream produced; usage is the whole request's on every final image, the last one counts.
 */
function meterImage(context: RequestContext, event: ImageStreamEvent): void {
  const completed = event.type === 'completed' || (event.type === 'forwarded' && event.completed);
  if (!completed) return;
  context.imageCount = (context.imageCount ?? 0) + 1;
  if (event.usage) {
    context.usage = { inputTokens: event.usage.inputTokens, cachedInputTokens: 0, outputTokens: event.usage.outputTokens, reasoningTokens: 0 };
  }
}
