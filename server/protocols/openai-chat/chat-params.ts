import type { OutputCapFields } from '../../access/output-ceiling.js';
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

/** The output cap: either field is the client's own (never both); the gateway sets the current one. `n` above 1 is refused by the contract. */
export const chatOutputCap: OutputCapFields = { named: ['max_completion_tokens', 'max_tokens'], set: 'max_completion_tokens' };

/** Fields chat takes in two spellings: `max_tokens` is the deprecated name of `max_completion_tokens`. */
export const chatTwinFields = [['max_completion_tokens', 'max_tokens']] as const;

/** The body fields each dropped feature removes (tool_choice has no meaning without tools). */
export const chatDroppedFields: DroppedFeatureFields = {
  tools: ['tools', 'tool_choice', 'parallel_tool_calls'],
  json_schema: ['response_format'],
  reasoning: ['reasoning_effort'],
};
