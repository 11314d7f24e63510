import { z } from 'zod';

/** The config keys only `type: vertex` takes, spread into the provider schema (config-schema.ts). */
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

const keyNames = Object.keys(vertexConfigKeys) as Array<keyof typeof vertexConfigKeys>;

type VertexKeys = { type: string; api_key?: string } & Partial<Record<keyof typeof vertexConfigKeys, string>>;

/** What is wrong with a provider entry's Vertex keys: set on another type, or an `api_key`, which Vertex does not use here. */
export function vertexConfigProblems(provider: VertexKeys): Array<{ path: string[]; message: string }> {
  if (provider.type !== 'vertex') {
    return keyNames.filter((key) => provider[key] !== undefined).map((key) => ({ path: [key], message: `${key} is for vertex providers only` }));
  }
  if (provider.api_key !== undefined) {
    return [{ path: ['api_key'], message: 'vertex authenticates with a service account (credentials_file), not an api_key' }];
  }
  return [];
}
