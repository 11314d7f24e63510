import type { ModelCapability, ProviderConfig, ProviderType } from '../config/config-schema.js';
import type { Provider } from './provider.js';

/**
 * Everything the gateway knows about one provider type, declared once in its folder's `index.ts`; the
 * registry (registry.ts) derives every per-type table from the list of definitions, so adding a provider
 * is its folder, its `type` in config-schema.ts and one entry in that list.
 */
export interface ProviderDefinition {
  type: ProviderType;
  /** What a model of this type can do when its config does not say (core/model-registry.ts). */
  defaultCapabilities: readonly ModelCapability[];
  /**
   * Nominal context window and output ceiling of a typical current model, reported in model lists that
   * carry them (Gemini's): the config does not state them and clients only use them to budget.
   */
  tokenLimits: { input: number; output: number };
  /** Whether its models may have image capabilities (the config refuses them otherwise). */
  makesImages: boolean;
  create(config: ProviderConfig): Provider;
}
