import type { GatewayConfig, ModelCapability, ModelConfig, ModelImagesConfig, ModelPricing, ProviderType } from '../config/config-schema.js';
import type { AccessPolicy } from '../access/access-policy.js';
import { modelNotFound } from './gateway-error.js';
import type { Provider } from '../providers/provider.js';
import { createProvider, providerDefinition } from '../providers/registry.js';

/** One place a model can be served: a provider instance and the name the upstream knows it by. */
export interface Deployment {
  /** `<provider id>/<upstream model>`: health is tracked per key, so models sharing a deployment share it. */
  key: string;
  provider: Provider;
  upstreamModel: string;
  weight: number;
}

/** A model clients can name, with the deployments that serve it and the models to fall back to. */
export interface RegisteredModel {
  id: string;
  capabilities: readonly ModelCapability[];
  onUnsupported: 'drop' | 'reject';
  created: number;
  /** The first deployment's provider type, reported as `owned_by`. */
  ownedBy: ProviderType;
  deployments: Deployment[];
  /** Model IDs tried in order when every deployment has failed. */
  fallbacks: string[];
  /** A session's requests go to one deployment while it is healthy (core/router.ts), for the provider's prompt cache. */
  sessionAffinity: boolean;
  /** Who runs the model's batch lines: the gateway, or the upstream's own batch API (config `batch`; server/batches/upstream/). */
  batch: 'gateway' | 'upstream';
  /** What the model takes when it makes images. */
  images: ModelImagesConfig;
  /** Prices for the usage ledger; undefined costs 0. */
  pricing?: ModelPricing;
  /** Prompt tokens the model takes (its config's or the price catalog's `context_window`); undefined when neither says. */
  contextWindow?: number;
  /** Most tokens one answer may have (its config's or the price catalog's `max_output_tokens`): the model's output ceiling. */
  maxOutputTokens?: number;
}

/** Reported as `created` for models whose config does not say (2026-01-01, the contract's 1.0.0). */
const defaultCreated = 1_767_225_600;

/**
 * The models of the config, looked up by the ID clients send. Built at start-up and replaced whole on a
 * config reload: a request holds the RegisteredModel (and so the providers) it resolved, so it finishes
 * on the config it started with while new requests see the new one.
 */
export class ModelRegistry {
  private models = new Map<string, RegisteredModel>();
  private providers: Provider[] = [];

  constructor(config: GatewayConfig) {
    this.replace(config);
  }

  /**
   * Builds the models and providers of `config`, then swaps both in one step (no request sees half of
   * each). Returns the providers replaced, for the caller to close once the requests using them end.
   */
  replace(config: GatewayConfig): Provider[] {
    const providers = new Map(config.providers.map((provider) => [provider.id, createProvider(provider, config.outbound)]));
    const models = new Map(config.models.map((model) => [model.id, toRegistered(model, providers)]));
    const replaced = this.providers;
    this.providers = [...providers.values()];
    this.models = models;
    return replaced;
  }

  /**
   * The models the caller may use, in config order: allowed by ID, and with something the caller may do
   * with them (an image or embedding model is left out for a key without its capability).
   */
  list(access: AccessPolicy): RegisteredModel[] {
    return this.all().filter((model) => access.permitsModel(model.id) && access.permitsSomeUse(model.capabilities));
  }

  /** Every model, whoever asks: for the gateway's own use, never for a client's answer. */
  all(): RegisteredModel[] {
    return [...this.models.values()];
  }

  /** The first model, in config order, with the capability that the caller may use. */
  firstWith(capability: ModelCapability, access: AccessPolicy): RegisteredModel | undefined {
    return this.list(access).find((model) => model.capabilities.includes(capability));
  }

  /**
   * The model a client named: 404 `model_not_found` when it does not exist, 403 when the caller may not
   * use it. Every surface resolves through here, so no path or alias spelling gets around a permission.
   */
  resolve(id: string, access: AccessPolicy): RegisteredModel {
    const model = this.models.get(id);
    if (!model) throw modelNotFound(id);
    access.assertModel(model.id);
    return model;
  }

  /** A model by ID without a caller (fallback chains); undefined when unknown. */
  find(id: string): RegisteredModel | undefined {
    return this.models.get(id);
  }

  /** Closes every provider's upstream connection pool. */
  async close(): Promise<void> {
    await Promise.all(this.providers.map((provider) => provider.close?.()));
  }
}

function toRegistered(model: ModelConfig, providers: Map<string, Provider>): RegisteredModel {
  const configured = model.deployments ?? [{ provider: model.provider!, upstream_model: model.upstream_model, weight: 1 }];
  const deployments = configured.map((deployment): Deployment => {
    const provider = providers.get(deployment.provider);
    if (!provider) throw new Error(`model ${model.id}: unknown provider ${deployment.provider}`);
    const upstreamModel = deployment.upstream_model ?? model.id;
    return { key: `${provider.id}/${upstreamModel}`, provider, upstreamModel, weight: deployment.weight };
  });
  const ownedBy = deployments[0]!.provider.type;
  return {
    id: model.id,
    capabilities: model.capabilities ?? providerDefinition(ownedBy).defaultCapabilities,
    onUnsupported: model.on_unsupported,
    created: model.created ?? defaultCreated,
    ownedBy,
    deployments,
    fallbacks: model.fallbacks,
    sessionAffinity: model.session_affinity,
    batch: model.batch,
    images: model.images,
    pricing: model.pricing,
    contextWindow: model.context_window,
    maxOutputTokens: model.max_output_tokens,
  };
}
