import type { ModelCapability, ProviderConfig } from '../config/config-schema.js';
import type { Provider } from './provider.js';

/**
 * What the gateway's code knows about one provider type, declared once in its folder's `index.ts`. The
 * part the config file checks (`type`, `serves`, its keys and their rules) is the folder's config-keys.ts,
 * listed in provider-config-rules.ts: the config's schema reads that list without loading any provider's
 * code, which itself reads the parsed config. The registry (registry.ts) holds each type's definition under
 * the type its config entry names, and derives every per-type table from them.
 */
export interface ProviderDefinition {
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
