import type { ProviderTypeEntry } from '../../config/provider-entry.js';
import { openAIConfigKeys } from '../openai/config-keys.js';

/** The `openai-compatible` type's part of the config file (see ProviderTypeEntry), listed in ../provider-config-rules.ts; its code is index.ts. */
export const openaiCompatibleConfigEntry: ProviderTypeEntry<'openai-compatible', typeof openAIConfigKeys> = {
  type: 'openai-compatible',
  serves: { chat: true, responses: true, images: true, embeddings: true, batches: true },
  config: { keys: openAIConfigKeys },
};
