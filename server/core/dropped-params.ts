import type { DroppableFeature } from './gate-capabilities.js';

/**
 * The body fields each dropped feature takes with it, per client protocol, as dotted paths
 * (`generationConfig.thinkingConfig`): Gemini keeps some settings one object down.
 */
export type DroppedFeatureFields = Record<DroppableFeature, readonly string[]>;

/** The fields of the client's body that the dropped features take with them, for `x-gateway-dropped-params`. */
export function droppedParamNames(fields: DroppedFeatureFields, body: Record<string, unknown>, dropped: readonly DroppableFeature[]): string[] {
  return dropped.flatMap((feature) => fields[feature]).filter((path) => valueAt(body, path.split('.')) !== undefined);
}

/**
 * The client's body without the dropped features' fields (for a pass-through), and the names of the
 * fields removed. The body itself is not modified: every object on a removed field's path is copied.
 */
export function withoutDroppedParams(
  fields: DroppedFeatureFields,
  body: Record<string, unknown>,
  dropped: readonly DroppableFeature[],
): { body: Record<string, unknown>; removed: string[] } {
  const removed = droppedParamNames(fields, body, dropped);
  const copy = { ...body };
  for (const path of removed) {
    const segments = path.split('.');
    const leaf = segments.pop()!;
    let parent = copy;
    for (const segment of segments) {
      parent[segment] = { ...(parent[segment] as Record<string, unknown>) };
      parent = parent[segment] as Record<string, unknown>;
    }
    delete parent[leaf];
  }
  return { body: copy, removed };
}

function valueAt(body: Record<string, unknown>, segments: readonly string[]): unknown {
  let value: unknown = body;
  for (const segment of segments) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
