import type { ModelCapability, ProviderType } from '../config/config-schema.js';

/**
 * What a model can do when its config does not say. The hosted APIs' current chat models all take tools,
 * images and JSON schemas; for self-hosted servers we cannot know the model, so only what every
 * OpenAI-compatible server implements is assumed. `reasoning` is always opt-in: asking a non-reasoning
 * model for it is an error upstream.
 */
const defaults: Record<ProviderType, readonly ModelCapability[]> = {
  openai: ['chat', 'streaming', 'tools', 'vision', 'json_schema'],
  anthropic: ['chat', 'streaming', 'tools', 'vision', 'json_schema'],
  gemini: ['chat', 'streaming', 'tools', 'vision', 'json_schema'],
  'openai-compatible': ['chat', 'streaming', 'tools', 'json_schema'],
  builtin: ['chat', 'streaming', 'tools', 'json_schema'],
};

export function defaultCapabilities(type: ProviderType): readonly ModelCapability[] {
  return defaults[type];
}
