import type { SseEvent } from '../../server/providers/upstream/read-sse.js';

/**
 * What OpenAI's Images API streams for `stream: true`, written from its API reference (no recording of an
 * image stream exists): `image_generation.partial_image` events with `partial_image_index` from 0, then
 * `image_generation.completed` with `usage`, each as `event: <type>` and `data: <json>` with the reference's
 * field order; `image_edit.*` for edits.
 * https://developers.openai.com/api/reference/resources/images/generation-streaming-events
 * https://developers.openai.com/api/reference/resources/images/edit-streaming-events
 *
 * @example upstream.enqueue({ sse: openAiImageStream('image_generation', { partials: [a, b], final: c }) });
 */
export function openAiImageStream(
  kind: 'image_generation' | 'image_edit',
  images: { partials: Buffer[]; final: Buffer },
  settings: OpenAiImageSettings = defaultSettings,
): SseEvent[] {
  const event = (type: string, fields: Record<string, unknown>): SseEvent => ({ event: type, data: JSON.stringify({ type, ...fields }) });
  const { usage, ...described } = settings;
  return [
    ...images.partials.map((partial, index) =>
      event(`${kind}.partial_image`, { b64_json: partial.toString('base64'), created_at: 1770935251 + index, ...described, partial_image_index: index }),
    ),
    event(`${kind}.completed`, { b64_json: images.final.toString('base64'), created_at: 1770935260, ...described, usage }),
  ];
}

export interface OpenAiImageSettings {
  size: string;
  quality: string;
  background: string;
  output_format: string;
  usage: { total_tokens: number; input_tokens: number; output_tokens: number; input_tokens_details: { text_tokens: number; image_tokens: number } };
}

/** The reference's example values (its usage: 50 in, of which 40 image tokens, and 50 out). */
export const defaultSettings: OpenAiImageSettings = {
  size: '1024x1024',
  quality: 'high',
  background: 'opaque',
  output_format: 'png',
  usage: { total_tokens: 100, input_tokens: 50, output_tokens: 50, input_tokens_details: { text_tokens: 10, image_tokens: 40 } },
};
