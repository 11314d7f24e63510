import { valueAt, withValueAt } from './body-path.js';
import type { DroppableFeature } from './gate-capabilities.js';

/**
 * The body fields each dropped feature takes with it, per client protocol, as dotted paths
 * (`generationConfig.thinkingConfig`): Gemini keeps some settings one object down.
 */
export type DroppedFeatureFields = Record<DroppableFeature, readonly string[]>;

/** The fields of the client's body that the dropped features take with them, for `x-gateway-dropped-params`. */
export function droppedParamNames(fields: DroppedFeatureFields, body: Record<string, unknown>, dropped: readonly DroppableFeature[]): string[] {
  return dropped.flatMap((feature) => fields[feature]).filter((path) => valueAt(body, path) !== undefined);
}

/**
 * The client's body without the dropped features' fields (for a pass-through), and the names of the
 * fields removed. The body itself is not modified: the answer is a copy, and so is every object on a
 * removed field's path.
 */
export function withoutDroppedParams(
  fields: DroppedFeatureFields,
  body: Record<string, unknown>,
  dropped: readonly DroppableFeature[],
): { body: Record<string, unknown>; removed: string[] } {
  const removed = droppedParamNames(fields, body, dropped);
  // Always a copy: callers rewrite other fields of the body they forward.
  return { body: removed.reduce((copy, path) => withValueAt(copy, path, undefined), { ...body }), removed };
}

/**
 * The top-level fields of the client's body that translation leaves behind because no internal form carries
 * them (Anthropic's `context_management`, say): named in `x-gateway-dropped-params` like dropped features.
 */
export function untranslatedParamNames(body: Record<string, unknown>, translated: ReadonlySet<string>): string[] {
  return Object.keys(body).filter((field) => !translated.has(field) && body[field] !== undefined && body[field] !== null);
}
