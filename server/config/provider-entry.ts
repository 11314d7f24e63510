import { z } from 'zod';

/**
 * What the config file knows of provider types, without loading any provider: the keys every provider entry
 * has, and the shape in which each type declares its own part of the entry (providers/<type>/config-keys.ts,
 * gathered by providers/provider-config-rules.ts). config-schema.ts builds the provider entry's schema from
 * them. This module imports nothing of the server, so the config's schema does not depend on the providers'
 * code (which reads the parsed config): the layers point one way (.dependency-cruiser.cjs).
 */

const milliseconds = (max: number) => z.number().int().min(1).max(max);

/** Upstream time limits. Defaults (in upstream/timeouts.ts) are documented in the README. */
const timeoutsSchema = z.strictObject({
  /** TCP + TLS connect. */
  connect_ms: milliseconds(120_000).optional(),
  /** From sending the request to the upstream's response headers. */
  first_byte_ms: milliseconds(3_600_000).optional(),
  /** Longest silence between two body chunks once the answer has started. */
  idle_ms: milliseconds(3_600_000).optional(),
});

/** The keys every provider entry may have, whatever its type, but `type` itself (config-schema.ts adds it). */
export const commonProviderKeys = {
  id: z.string().min(1),
  /** Same convention as the provider's official SDK base URL (OpenAI's includes `/v1`). */
  base_url: z.url().optional(),
  api_key: z.string().min(1).optional(),
  /** Extra headers for every upstream call (OpenRouter's `HTTP-Referer`, a proxy's auth, …). */
  headers: z.record(z.string(), z.string()).optional(),
  timeouts: timeoutsSchema.optional(),
};

/** A parsed provider entry as a type's rules see it: the common keys, its `type` and the type's own keys. */
export type ProviderEntry<Keys extends z.ZodRawShape = NoConfigKeys> = z.output<z.ZodObject<typeof commonProviderKeys & Keys>> & { type: string };

/** The `Keys` of a type that takes none beyond the common ones (its `keys` are `{}`). */
export type NoConfigKeys = Record<never, never>;

export interface ConfigProblem {
  /** Under the provider's entry. */
  path: string[];
  message: string;
}

/**
 * What a provider type can answer. The config refuses a model whose capabilities need what its provider's
 * type does not serve (image capabilities on a chat-only type).
 */
export interface ProviderServes {
  /** Chat, translated from every client protocol (Chat Completions, Responses, Messages, generateContent). */
  chat: boolean;
  /** Responses API clients forwarded to the upstream's own `/responses` (`api: responses`). */
  responses: boolean;
  /** The Images API (generation and edits). */
  images: boolean;
  /** Embeddings (OpenAI `/embeddings`, Gemini `:embedContent`): models with the `embeddings` capability need it. */
  embeddings: boolean;
  /**
   * A batch API of the upstream's own that whole batches can be forwarded to (models with `batch: upstream`):
   * OpenAI's Files and Batch API, which OpenAI-compatible servers that batch (Groq, Together, Fireworks…)
   * imitate; Anthropic's Message Batches.
   */
  batches: boolean;
}

/**
 * A provider type's part of the config file, declared in its folder's config-keys.ts and listed in
 * providers/provider-config-rules.ts (the list of provider types): the `type` an entry names, what it
 * serves, and its keys.
 */
export interface ProviderTypeEntry<Type extends string = string, Keys extends z.ZodRawShape = z.ZodRawShape> {
  /** The `type` a config entry names. */
  type: Type;
  /** Which kinds of calls the type can answer (see ProviderServes). */
  serves: ProviderServes;
  config: ProviderConfigExtension<Keys>;
}

/** A type's part of the provider entry in the config file. */
export interface ProviderConfigExtension<Keys extends z.ZodRawShape> {
  /**
   * The keys only this type takes (zod schemas, all optional). A type that shares another's keys spreads the
   * same schema objects; on any other type the keys are refused, naming the types that take them.
   */
  keys: Keys;
  /** What is wrong with an entry of this type beyond each key's own schema: keys that go together, keys it must have. */
  problems?(provider: ProviderEntry<Keys>): ConfigProblem[];
}
