import type { NoConfigKeys, ProviderTypeEntry } from '../../config/provider-entry.js';

/** The `gemini` type's part of the config file (see ProviderTypeEntry); its definition (index.ts) spreads it. */
export const geminiConfigEntry: ProviderTypeEntry<'gemini', NoConfigKeys> = {
  type: 'gemini',
  serves: { chat: true, responses: false, images: true, embeddings: true },
  config: { keys: {} },
};
