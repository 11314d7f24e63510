import type { DroppableFeature } from '../../core/gate-capabilities.js';
import { asRecord } from '../../providers/upstream/parse-json.js';

/** Where each gated feature lives in a generateContent request, for errors and the dropped-params header. */
export const geminiFeatureParams = {
  tools: 'tools',
  json_schema: 'generationConfig.responseSchema',
  reasoning: 'generationConfig.thinkingConfig',
  stream: 'streamGenerateContent',
  images: 'contents',
} as const satisfies Record<DroppableFeature | 'stream' | 'images', string>;

/**
 * The fields each dropped feature removes, as dotted paths: Gemini keeps structured output and thinking
 * inside `generationConfig`. Without a schema the JSON MIME type goes too, so that a dropped schema means
 * plain text on every upstream, as it does in translation.
 */
const droppedFields: Record<DroppableFeature, readonly string[]> = {
  tools: ['tools', 'toolConfig'],
  json_schema: ['generationConfig.responseMimeType', 'generationConfig.responseSchema', 'generationConfig.responseJsonSchema'],
  reasoning: ['generationConfig.thinkingConfig'],
};

/** The fields of the client's body that the dropped features take with them, for `x-gateway-dropped-params`. */
export function geminiDroppedParamNames(body: Record<string, unknown>, dropped: readonly DroppableFeature[]): string[] {
  return dropped.flatMap((feature) => droppedFields[feature]).filter((path) => {
    const [outer, inner] = path.split('.');
    return inner === undefined ? body[outer!] !== undefined : asRecord(body[outer!])?.[inner] !== undefined;
  });
}

/**
 * The client's body without the dropped features' fields (for a pass-through), and their names. The body
 * is not modified; `generationConfig` is copied when a field inside it goes.
 */
export function withoutGeminiDroppedParams(
  body: Record<string, unknown>,
  dropped: readonly DroppableFeature[],
): { body: Record<string, unknown>; removed: string[] } {
  const removed = geminiDroppedParamNames(body, dropped);
  const copy: Record<string, unknown> = { ...body };
  for (const path of removed) {
    const [outer, inner] = path.split('.') as [string, string | undefined];
    if (inner === undefined) {
      delete copy[outer];
      continue;
    }
    const nested = { ...asRecord(copy[outer]) };
    delete nested[inner];
    copy[outer] = nested;
  }
  return { body: copy, removed };
}
