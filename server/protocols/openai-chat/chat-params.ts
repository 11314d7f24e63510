import type { DroppableFeature } from '../../core/gate-capabilities.js';

/** Where each gated feature lives in a Chat Completions request, for errors and the dropped-params header. */
export const chatFeatureParams = {
  tools: 'tools',
  json_schema: 'response_format',
  reasoning: 'reasoning_effort',
  stream: 'stream',
  images: 'messages',
} as const satisfies Record<DroppableFeature | 'stream' | 'images', string>;

/** The body fields each dropped feature removes (tool_choice has no meaning without tools). */
const fieldsOf: Record<DroppableFeature, readonly string[]> = {
  tools: ['tools', 'tool_choice', 'parallel_tool_calls'],
  json_schema: ['response_format'],
  reasoning: ['reasoning_effort'],
};

/**
 * The client's body without the dropped features' fields, and the names of the fields actually removed
 * (for `x-gateway-dropped-params`). The body itself is not modified.
 */
export function withoutDroppedParams(
  body: Record<string, unknown>,
  dropped: readonly DroppableFeature[],
): { body: Record<string, unknown>; removed: string[] } {
  const copy = { ...body };
  const removed: string[] = [];
  for (const field of dropped.flatMap((feature) => fieldsOf[feature])) {
    if (field in copy) {
      delete copy[field];
      removed.push(field);
    }
  }
  return { body: copy, removed };
}
