import type { NoConfigKeys, ProviderTypeEntry } from '../../config/provider-entry.js';

/** The `gemini` type's part of the config file (see ProviderTypeEntry), listed in ../provider-config-rules.ts; its code is index.ts. */
export const geminiConfigEntry: ProviderTypeEntry<'gemini', NoConfigKeys> = {
  type: 'gemini',
  serves: { chat: true, responses: false, images: true, embeddings: true, batches: false },
  config: { keys: {} },
};
