import { principalOf } from '../../access/principal-of.js';
import { imageResultEvents } from '../../core/image-result-events.js';
import type { ImageEditRequest, ImageGenerationRequest, ImageResult, ImageStreamEvent } from '../../core/image-types.js';
import type { RegisteredModel } from '../../core/model-registry.js';
import { prefetchFirstEvent } from '../../core/prefetch-first-event.js';
import type { RequestContext } from '../../core/request-context.js';
import { routeCall } from '../../core/route-call.js';
import { tallyImageStream } from '../../core/tally-image-stream.js';
import type { CallContext, ImageProvider } from '../../providers/provider.js';
import { imageProviderOf } from './image-provider-of.js';
import { imageStreamErrorEvent } from './image-stream-error-event.js';
import type { ImageServices } from './image-services.js';
import { renderImageStreamEvent, type ImageStreamFrame, type ImagesStreamData } from './render-image-stream-event.js';

/** A streamed request of either endpoint; the kind names its events. */
export type ImageStreamJob = { kind: 'image_generation'; request: ImageGenerationRequest } | { kind: 'image_edit'; request: ImageEditRequest };

/**
 * `stream: true` on either image endpoint, as a routed call (core/route-call.ts) of a model admitted
 * already (admit-image-request.ts): the call runs over the model's deployments like any other (retries and
 * fallbacks until its first event is in hand), then every event goes to the client as it comes, never
 * collected; the answer tallies its final images as they are made (core/tally-image-stream.ts), for the ledger. A provider that cannot stream sends each image as one completed event. A
 * failure after the 200 is an in-band `error` event, as OpenAI sends one.
 */
export async function streamImages(context: RequestContext, services: ImageServices, job: ImageStreamJob & { model: RegisteredModel }): Promise<void> {
  const answer = await routeCall<AsyncIterable<ImageStreamEvent>, never, ImagesStreamData>(
    services,
    {
      admit: () => job.model,
      attempt: async (target, signal) => prefetchFirstEvent(startImageStream(imageProviderOf(target), job, { upstreamModel: target.deployment.upstreamModel, signal })),
      answer: (events, target) => {
        const tallied = tallyImageStream(events);
        return {
          target,
          droppedParams: [],
          kind: 'stream',
          frames: framesOf(tallied.events, job.kind),
          errorFrames: (error) => [{ data: imageStreamErrorEvent(error), event: 'error' }],
          images: tallied.images,
        };
      },
    },
    context,
    principalOf(context).access,
    context.work.signal,
  );
  await context.emit(answer);
}

/** The events as the client's frames. */
async function* framesOf(events: AsyncIterable<ImageStreamEvent>, kind: ImageStreamJob['kind']): AsyncGenerator<ImageStreamFrame> {
  for await (const event of events) yield renderImageStreamEvent(event, kind);
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
