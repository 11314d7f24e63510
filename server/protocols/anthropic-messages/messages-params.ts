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

/**
 * The top-level fields a translation carries to other upstreams. Any other field (`context_management`,
 * `container`, `mcp_servers`, a beta's new field) only Anthropic reads: forwarded to Anthropic upstreams,
 * named as dropped elsewhere. `service_tier` is Anthropic's own, so it is named too.
 */
export const messagesTranslatedFields: ReadonlySet<string> = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'metadata',
]);
