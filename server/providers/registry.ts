import type { ProviderConfig, ProviderType } from '../config/config-schema.js';
import { GatewayError } from '../http/gateway-error.js';
import { createBuiltinProvider } from './builtin/index.js';
import { createGeminiProvider } from './gemini/index.js';
import type { Provider } from './provider.js';

type ProviderFactory = (config: ProviderConfig) => Provider;

/** Provider types whose upstream adapters are not built yet: configured models answer 501, honestly. */
function notYetImplemented(config: ProviderConfig): Provider {
  return {
    type: config.type,
    id: config.id,
    // eslint-disable-next-line require-yield
    async *stream() {
      throw new GatewayError('not_implemented', `Provider type '${config.type}' (provider '${config.id}') is not implemented by this gateway version yet.`);
    },
  };
}

/** One line per provider type: adding a provider is a folder plus a line here. */
const factories: Record<ProviderType, ProviderFactory> = {
  builtin: (config) => createBuiltinProvider({ id: config.id, chunkDelayMs: config.chunk_delay_ms }),
  openai: notYetImplemented,
  anthropic: notYetImplemented,
  gemini: createGeminiProvider,
  'openai-compatible': notYetImplemented,
};

export function createProvider(config: ProviderConfig): Provider {
  return factories[config.type](config);
}
