import type { DroppedFeatureFields } from '../../core/dropped-params.js';
import type { DroppableFeature } from '../../core/gate-capabilities.js';

/** Where each gated feature lives in a Messages request, for errors and the dropped-params header. */
export const messagesFeatureParams = {
  tools: 'tools',
  json_schema: 'output_config',
  reasoning: 'thinking',
  stream: 'stream',
  images: 'messages',
  maxOutputTokens: 'max_tokens',
} as const satisfies Record<DroppableFeature | 'stream' | 'images' | 'maxOutputTokens', string>;

/**
 * The body fields each dropped feature removes. `output_config` goes whole with its format, `effort`
 * included: dropping removes top-level fields only, the same in a pass-through as in the header.
 */
export const messagesDroppedFields: DroppedFeatureFields = {
  tools: ['tools', 'tool_choice'],
  json_schema: ['output_config'],
  reasoning: ['thinking'],
};
