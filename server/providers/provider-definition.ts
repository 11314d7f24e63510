import type { z } from 'zod';
import type { ModelCapability, ProviderConfig } from '../config/config-schema.js';
import type { ProviderTypeEntry } from '../config/provider-entry.js';
import type { Provider } from './provider.js';

/**
 * Everything the gateway knows about one provider type, declared once in its folder's `index.ts`; the
 * registry (registry.ts) derives every per-type table from the list of definitions. The part the config
 * file checks (`type`, `serves`, `config`) is the folder's config-keys.ts, spread in here, and listed
 * again in provider-config-rules.ts: the config's schema reads that list without loading any provider's
 * code, which itself reads the parsed config. Adding a provider is its folder and one entry in each list
 * (registry.ts checks they agree).
 *
 * `Type` and `Keys` are spelt out in each definition's annotation (never inferred from the object).
 */
export interface ProviderDefinition<Type extends string = string, Keys extends z.ZodRawShape = z.ZodRawShape> extends ProviderTypeEntry<Type, Keys> {
  /** What a model of this type can do when its config does not say (core/model-registry.ts). */
  defaultCapabilities: readonly ModelCapability[];
  /**
   * Nominal context window and output ceiling of a typical current model, reported in model lists that
   * carry them (Gemini's): the config does not state them and clients only use them to budget.
   */
  tokenLimits: { input: number; output: number };
  /**
   * Whether the gateway fetches a request's image URLs and sends the images inline, when the entry's
   * `inline_image_urls` (where the type takes it) does not say: for upstreams that take images only as data.
   * with-inlined-image-urls.ts inlines for the translated path and the OpenAI-shaped pass-throughs only, so a
   * type that inlines has no Messages or generateContent pass-through.
   */
  inlinesImageUrls: boolean;
  /**
   * `gen_ai.provider.name` in traces: the GenAI conventions' well-known value
   * (https://opentelemetry.io/docs/specs/semconv/registry/attributes/gen-ai/), or the gateway's own where
   * there is none (OpenAI-compatible servers, the built-in model).
   */
  genAiName: string;
  /** How model lists describe a model of this type; without it, as served from an upstream of this type. */
  describeModel?(kind: 'chat' | 'image'): string;
  create(config: ProviderConfig): Provider;
}
