import type { DroppedFeatureFields } from '../../core/dropped-params.js';
import type { DroppableFeature } from '../../core/gate-capabilities.js';

/** Where each gated feature lives in a Chat Completions request, for errors and the dropped-params header. */
export const chatFeatureParams = {
  tools: 'tools',
  json_schema: 'response_format',
  reasoning: 'reasoning_effort',
  stream: 'stream',
  images: 'messages',
  maxOutputTokens: 'max_tokens',
} as const satisfies Record<DroppableFeature | 'stream' | 'images' | 'maxOutputTokens', string>;

/** The body fields each dropped feature removes (tool_choice has no meaning without tools). */
export const chatDroppedFields: DroppedFeatureFields = {
  tools: ['tools', 'tool_choice', 'parallel_tool_calls'],
  json_schema: ['response_format'],
  reasoning: ['reasoning_effort'],
};
