import type { DroppableFeature } from './gate-capabilities.js';

/** The top-level body fields each dropped feature takes with it, per client protocol. */
export type DroppedFeatureFields = Record<DroppableFeature, readonly string[]>;

/** The fields of the client's body that the dropped features take with them, for `x-gateway-dropped-params`. */
export function droppedParamNames(fields: DroppedFeatureFields, body: Record<string, unknown>, dropped: readonly DroppableFeature[]): string[] {
  return dropped.flatMap((feature) => fields[feature]).filter((field) => field in body);
}

/**
 * The client's body without the dropped features' fields (for a pass-through), and the names of the
 * fields removed. The body itself is not modified.
 */
export function withoutDroppedParams(
  fields: DroppedFeatureFields,
  body: Record<string, unknown>,
  dropped: readonly DroppableFeature[],
): { body: Record<string, unknown>; removed: string[] } {
  const removed = droppedParamNames(fields, body, dropped);
  const copy = { ...body };
  for (const field of removed) delete copy[field];
  return { body: copy, removed };
}
