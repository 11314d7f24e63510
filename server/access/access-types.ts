import type { ModelCapability } from '../config/config-schema.js';

/**
 * What an account, or one of its keys, may use. Every field is optional: an absent field allows
 * everything. A key's permissions narrow its account's, never widen them (see effective-access.ts).
 */
export interface Permissions {
  /** Model IDs the caller may use: exact IDs, or `prefix/*` patterns (`openai/*`). */
  models?: string[];
  /**
   * Capabilities the caller may use: tools, vision, json_schema, reasoning, image_generation, image_edit, embeddings.
   * Plain chat and streaming are not gated here; the model list governs them.
   */
  capabilities?: ModelCapability[];
  /** Largest `max_tokens` / `max_output_tokens` / `maxOutputTokens` a request may ask for. */
  max_output_tokens?: number;
  /** Image sizes (`WIDTHxHEIGHT`, `auto`) a request may ask for. */
  image_sizes?: string[];
  /** Largest `n` of an image request. */
  max_images?: number;
  /**
   * Options that change a request's price which a caller whose permissions narrow requests may use; such
   * a caller may use none without this field (see AccessPolicy.permitsCostOption).
   */
  cost_options?: CostOption[];
}

/** What changes a request's price beyond its tokens: a non-default service tier, Anthropic's priced betas. */
export type CostOption = 'service_tier' | 'long_context' | 'extended_cache_ttl';

/** Ceilings per account and per key; an absent field is no limit. */
export interface Limits {
  requests_per_minute?: number;
  tokens_per_minute?: number;
  concurrent_requests?: number;
  /** US dollars per UTC day, from the configured prices. */
  spend_per_day_usd?: number;
  /** US dollars per UTC calendar month. */
  spend_per_month_usd?: number;
}
