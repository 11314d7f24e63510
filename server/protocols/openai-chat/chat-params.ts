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

/** The fields of the client's body that the dropped features take with them, for `x-gateway-dropped-params`. */
export function droppedParamNames(body: Record<string, unknown>, dropped: readonly DroppableFeature[]): string[] {
  return dropped.flatMap((feature) => fieldsOf[feature]).filter((field) => field in body);
}

/**
 * The client's body without the dropped features' fields (for a pass-through), and the names of the
 * fields removed. The body itself is not modified.
 */
export function withoutDroppedParams(
  body: Record<string, unknown>,
  dropped: readonly DroppableFeature[],
): { body: Record<string, unknown>; removed: string[] } {
  const removed = droppedParamNames(body, dropped);
  const copy = { ...body };
  for (const field of removed) delete copy[field];
  return { body: copy, removed };
}
