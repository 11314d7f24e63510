import type { NoConfigKeys, ProviderTypeEntry } from '../../config/provider-entry.js';

/** The `anthropic` type's part of the config file (see ProviderTypeEntry), listed in ../provider-config-rules.ts; its code is index.ts. */
export const anthropicConfigEntry: ProviderTypeEntry<'anthropic', NoConfigKeys> = {
  type: 'anthropic',
  serves: { chat: true, responses: false, images: false, embeddings: false, batches: true },
  config: { keys: {} },
};
