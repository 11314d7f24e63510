import { z } from 'zod';
import type { ProviderTypeEntry } from '../../config/provider-entry.js';

/** The config keys only `type: builtin` takes. */
export const builtinConfigKeys = {
  /** Pause between streamed chunks, to look like a real model in a UI. */
  chunk_delay_ms: z.number().int().min(0).max(10_000).optional(),
};

/** The `builtin` type's part of the config file (see ProviderTypeEntry), listed in ../provider-config-rules.ts; its code is index.ts. */
export const builtinConfigEntry: ProviderTypeEntry<'builtin', typeof builtinConfigKeys> = {
  type: 'builtin',
  serves: { chat: true, responses: false, images: true, embeddings: true, batches: false },
  config: { keys: builtinConfigKeys },
};
