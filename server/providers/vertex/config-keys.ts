import { z } from 'zod';
import type { ConfigProblem, ProviderEntry, ProviderTypeEntry } from '../../config/provider-entry.js';

/** The config keys only `type: vertex` takes. */
export const vertexConfigKeys = {
  /** The service-account JSON key file; default the GOOGLE_APPLICATION_CREDENTIALS environment variable. */
  credentials_file: z.string().min(1).optional(),
  /** The Google Cloud project; default the key file's `project_id`. */
  project: z.string().regex(/^[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/, 'a Google Cloud project ID').optional(),
  /** The region (`us-central1`, the default) or `global`. */
  location: z.string().regex(/^[a-z0-9-]+$/, 'a Google Cloud location such as us-central1 or global').optional(),
  /** Whose models the provider serves: `google` (Gemini, the default) or `anthropic` (Claude). */
  publisher: z.enum(['google', 'anthropic']).optional(),
};

/** What is wrong with a Vertex entry: an `api_key`, which Vertex does not use here. */
export function vertexConfigProblems(provider: ProviderEntry<typeof vertexConfigKeys>): ConfigProblem[] {
  if (provider.api_key !== undefined) {
    return [{ path: ['api_key'], message: 'vertex authenticates with a service account (credentials_file), not an api_key' }];
  }
  return [];
}

/** The `vertex` type's part of the config file (see ProviderTypeEntry), listed in ../provider-config-rules.ts; its code is index.ts. */
export const vertexConfigEntry: ProviderTypeEntry<'vertex', typeof vertexConfigKeys> = {
  type: 'vertex',
  serves: { chat: true, responses: false, images: false, embeddings: true, batches: false },
  config: { keys: vertexConfigKeys, problems: vertexConfigProblems },
};
