import type { components } from '../../../generated/api.js';
import type { ImageStreamEvent } from '../../core/image-types.js';
import type { StreamFrame } from '../../core/stream-frame.js';
import { asUpstreamAnswer } from '../../core/upstream-answer.js';
import { renderStreamUsage } from './render-stream-usage.js';
import { streamedImageSettings } from './streamed-image-settings.js';
import { assertNever } from '../../core/assert-never.js';

type Schemas = components['schemas'];

/** Which endpoint streams: it names the events (`image_generation.*` or `image_edit.*`). */
export type ImageStreamKind = 'image_generation' | 'image_edit';

/**
 * What an image stream's frames carry, for either endpoint: the spec's stream events of both (the kind
 * names which), the `error` event among them.
 */
export type ImagesStreamData = Schemas['ImagesGenerationStreamEvent'] | Schemas['ImagesEditStreamEvent'];

/** One SSE frame: its `event:` name (which OpenAI repeats as `type`) and its `data:` payload. */
export type ImageStreamFrame = StreamFrame<ImagesStreamData> & { event: string };

/**
 * An internal image stream event as OpenAI's wire event
 * (https://developers.openai.com/api/reference/resources/images/generation-streaming-events): images as
 * `b64_json`, which is all the events carry, `created_at` when the event was made.
 *
 * @example renderImageStreamEvent(event, 'image_edit') // → { event: 'image_edit.completed', data: { type: 'image_edit.completed', b64_json, … } }
 */
export function renderImageStreamEvent(event: ImageStreamEvent, kind: ImageStreamKind): ImageStreamFrame {
  const createdAt = Math.floor(Date.now() / 1000);
  switch (event.type) {
    case 'forwarded':
      return { event: event.event, data: asUpstreamAnswer<ImagesStreamData>(event.data) };
    case 'partial_image': {
      const type = `${kind}.partial_image` as const;
      const settings = streamedImageSettings(event.details, event.image);
      return { event: type, data: { type, b64_json: event.image.base64(), created_at: createdAt, ...settings, partial_image_index: event.partialImageIndex } };
    }
    case 'completed': {
      const type = `${kind}.completed` as const;
      const settings = streamedImageSettings(event.details, event.image.data);
      return { event: type, data: { type, b64_json: event.image.data.base64(), created_at: createdAt, ...settings, usage: renderStreamUsage(event.usage) } };
    }
    default:
      return assertNever(event);
  }
}
