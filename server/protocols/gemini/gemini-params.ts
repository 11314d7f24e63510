import type { OutputCapFields } from '../../access/output-ceiling.js';
import type { DroppedFeatureFields } from '../../core/dropped-params.js';
import type { DroppableFeature } from '../../core/gate-capabilities.js';

/** Where each gated feature lives in a generateContent request, for errors and the dropped-params header. */
export const geminiFeatureParams = {
  tools: 'tools',
  json_schema: 'generationConfig.responseSchema',
  reasoning: 'generationConfig.thinkingConfig',
  stream: 'streamGenerateContent',
  images: 'contents',
  maxOutputTokens: 'generationConfig.maxOutputTokens',
} as const satisfies Record<DroppableFeature | 'stream' | 'images' | 'maxOutputTokens', string>;

/** The output cap of each candidate (thoughts count against it), in the camelCase body the gateway reads. */
export const geminiOutputCap: OutputCapFields = {
  named: ['generationConfig.maxOutputTokens'],
  set: 'generationConfig.maxOutputTokens',
  candidates: 'generationConfig.candidateCount',
};

/**
 * The fields each dropped feature removes, as dotted paths: Gemini keeps structured output and thinking
 * inside `generationConfig`. Without a schema the JSON MIME type goes too, so that a dropped schema means
 * plain text on every upstream, as it does in translation.
 */
export const geminiDroppedFields: DroppedFeatureFields = {
  tools: ['tools', 'toolConfig'],
  json_schema: ['generationConfig.responseMimeType', 'generationConfig.responseSchema', 'generationConfig.responseJsonSchema'],
  reasoning: ['generationConfig.thinkingConfig'],
};
