import type { OutputCapFields } from '../../access/output-ceiling.js';
import type { DroppedFeatureFields } from '../../core/dropped-params.js';
import type { DroppableFeature } from '../../core/gate-capabilities.js';

/** Where each gated feature lives in a Responses request, for errors and the dropped-params header. */
export const responsesFeatureParams = {
  tools: 'tools',
  json_schema: 'text.format',
  reasoning: 'reasoning',
  stream: 'stream',
  images: 'input',
  maxOutputTokens: 'max_output_tokens',
} as const satisfies Record<DroppableFeature | 'stream' | 'images' | 'maxOutputTokens', string>;

/** The output cap, reasoning included. */
export const responsesOutputCap: OutputCapFields = { named: ['max_output_tokens'], set: 'max_output_tokens' };

/**
 * The body fields each dropped feature removes. `text` goes whole with its format: the only other setting
 * in it (`verbosity`) is a reasoning-model option that a model without structured output does not take either.
 */
export const responsesDroppedFields: DroppedFeatureFields = {
  tools: ['tools', 'tool_choice', 'parallel_tool_calls'],
  json_schema: ['text'],
  reasoning: ['reasoning'],
};
