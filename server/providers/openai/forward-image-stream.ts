import { imageResultEvents } from '../../core/image-result-events.js';
import type { ImageStreamEvent } from '../../core/image-types.js';
import type { CallContext, ImageStreamingProvider } from '../provider.js';
import { namedEvents } from '../upstream/named-events.js';
import { readSse } from '../upstream/read-sse.js';
import type { UpstreamClient, UpstreamReply } from '../upstream/upstream-client.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { readImagesResult, toEditForm } from './forward-images.js';
import { readImagesUsage } from './read-images-usage.js';
import { streamFailure } from './read-error.js';

/**
 * Streamed image requests forwarded to OpenAI's Images API with `stream: true` and `partial_images`, and
 * its events (`image_generation.partial_image`, `image_generation.completed`, the `image_edit.*` ones)
 * passed on as they arrive, never re-serialized: each is parsed only to tell a final image, its usage
 * and an error. Events: https://developers.openai.com/api/reference/resources/images/generation-streaming-events
 * and https://developers.openai.com/api/reference/resources/images/edit-streaming-events
 */
export function createOpenAIImageStreaming(client: UpstreamClient, providerId: string): ImageStreamingProvider {
  return {
    async *generate(request, context) {
      // response_format stays out as in the JSON call: streamed images are always base64.
      const { response_format: _decidedByGateway, ...body } = request.body;
      const upstreamBody = { ...body, model: context.upstreamModel, stream: true, partial_images: request.partialImages ?? 0 };
      yield* forwardedEvents(await client.postJson('/images/generations', upstreamBody, context.signal), client, providerId, context);
    },
    async *edit(request, context) {
      const form = await toEditForm(request, context.upstreamModel);
      form.append('stream', 'true');
      form.append('partial_images', String(request.partialImages ?? 0));
      yield* forwardedEvents(await client.postForm('/images/edits', form, context.signal), client, providerId, context);
    },
  };
}

async function* forwardedEvents(reply: UpstreamReply, client: UpstreamClient, providerId: string, context: CallContext): AsyncGenerator<ImageStreamEvent> {
  // A server in OpenAI's place that ignored `stream` and answered whole still made the images.
  if (String(reply.headers['content-type'] ?? '').startsWith('application/json')) {
    yield* imageResultEvents(await readImagesResult(await client.readJson(reply, context.signal), client, context));
    return;
  }
  let sent = 0;
  let completed = false;
  for await (const { type, data, payload } of namedEvents(readSse(client.chunks(reply, context.signal)), providerId)) {
    // Data spread over several `data:` lines arrives joined by line breaks, which one line cannot carry on.
    const oneLine = data.includes('\n') ? JSON.stringify(payload) : data;
    if (type === 'error' || (payload.error !== undefined && payload.error !== null)) {
      // Before anything reached the client the router may still retry; after, the client gets it as sent.
      if (sent === 0) throw streamFailure(providerId, payload);
      yield { type: 'forwarded', event: 'error', data: oneLine, completed: false };
      return;
    }
    const final = type.endsWith('.completed');
    completed ||= final;
    sent += 1;
    yield { type: 'forwarded', event: type, data: oneLine, completed: final, usage: final ? readImagesUsage(payload.usage) : undefined };
  }
  if (!completed) throw upstreamStreamEndedEarly(providerId);
}
