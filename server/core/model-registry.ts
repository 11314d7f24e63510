import type { GatewayConfig, ModelCapability, ModelConfig, ProviderConfig } from '../config/config-schema.js';
import { modelNotFound } from '../http/gateway-error.js';
import type { Provider } from '../providers/provider.js';
import { createProvider } from '../providers/registry.js';

/** A model clients can name, bound to the provider instance that serves it. */
export interface RegisteredModel {
  id: string;
  upstreamModel: string;
  capabilities: readonly ModelCapability[];
  created: number;
  providerType: ProviderConfig['type'];
  provider: Provider;
}

/** Reported as `created` for models whose config does not say (2026-01-01, the contract's 1.0.0). */
const defaultCreated = 1_767_225_600;

/** The models of the config, looked up by the ID clients send. Built once at start-up. */
export class ModelRegistry {
  private readonly models = new Map<string, RegisteredModel>();

  constructor(config: GatewayConfig) {
    const providers = new Map(config.providers.map((provider) => [provider.id, { config: provider, instance: createProvider(provider) }]));
    for (const model of config.models) {
      const provider = providers.get(model.provider);
      if (!provider) throw new Error(`model ${model.id}: unknown provider ${model.provider}`);
      this.models.set(model.id, toRegistered(model, provider.config, provider.instance));
    }
  }

  list(): RegisteredModel[] {
    return [...this.models.values()];
  }

  /** The model with this ID, or a 404 `model_not_found` GatewayError. */
  resolve(id: string): RegisteredModel {
    const model = this.models.get(id);
    if (!model) throw modelNotFound(id);
    return model;
  }
}

function toRegistered(model: ModelConfig, provider: ProviderConfig, instance: Provider): RegisteredModel {
  return {
    id: model.id,
    upstreamModel: model.upstream_model ?? model.id,
    capabilities: model.capabilities,
    created: model.created ?? defaultCreated,
    providerType: provider.type,
    provider: instance,
  };
}
