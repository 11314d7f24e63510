import type { NoConfigKeys, ProviderTypeEntry } from '../../config/provider-entry.js';

/** The `anthropic` type's part of the config file (see ProviderTypeEntry); its definition (index.ts) spreads it. */
export const anthropicConfigEntry: ProviderTypeEntry<'anthropic', NoConfigKeys> = {
  type: 'anthropic',
  serves: { chat: true, responses: false, images: false, embeddings: false },
  config: { keys: {} },
};
