import type { ProviderTypeEntry } from '../../config/provider-entry.js';
import { openAIConfigKeys } from '../openai/config-keys.js';

/** The `openai-compatible` type's part of the config file (see ProviderTypeEntry); its definition (index.ts) spreads it. */
export const openaiCompatibleConfigEntry: ProviderTypeEntry<'openai-compatible', typeof openAIConfigKeys> = {
  type: 'openai-compatible',
  serves: { chat: true, responses: true, images: true, embeddings: true },
  config: { keys: openAIConfigKeys },
};
