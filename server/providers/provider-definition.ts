import type { z } from 'zod';
import type { ModelCapability, ProviderConfig } from '../config/config-schema.js';
import type { Provider } from './provider.js';

/**
 * Everything the gateway knows about one provider type, declared once in its folder's `index.ts`; the
 * registry (registry.ts) derives every per-type table and config rule from the list of definitions, so
 * adding a provider is its folder and one entry in that list.
 *
 * `Type` and `Keys` are spelt out in each definition's annotation (never inferred from the object), so the
 * type of the config, which is built from every definition's keys, does not depend on itself.
 */
export interface ProviderDefinition<Type extends string = string, Keys extends z.ZodRawShape = z.ZodRawShape> {
  /** The `type` a config entry names. */
  type: Type;
  /** What a model of this type can do when its config does not say (core/model-registry.ts). */
  defaultCapabilities: readonly ModelCapability[];
  /**
   * Nominal context window and output ceiling of a typical current model, reported in model lists that
   * carry them (Gemini's): the config does not state them and clients only use them to budget.
   */
  tokenLimits: { input: number; output: number };
  /** Which kinds of calls the type can answer (see ProviderServes). */
  serves: ProviderServes;
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
  config: ProviderConfigExtension<Keys>;
  create(config: ProviderConfig): Provider;
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
}

/** A type's part of the provider entry in the config file. */
export interface ProviderConfigExtension<Keys extends z.ZodRawShape> {
  /**
   * The keys only this type takes (zod schemas, all optional). A type that shares another's keys spreads the
   * same schema objects; on any other type the keys are refused, naming the types that take them.
   */
  keys: Keys;
  /** What is wrong with an entry of this type beyond each key's own schema: keys that go together, keys it must have. */
  problems?(provider: ProviderConfig): ConfigProblem[];
}

export interface ConfigProblem {
  /** Under the provider's entry. */
  path: string[];
  message: string;
}

/** The `Keys` of a type that takes none beyond the common ones (its `keys` are `{}`). */
export type NoConfigKeys = Record<never, never>;
