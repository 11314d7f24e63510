import type { OutboundConfig, ProviderConfig, ProviderType } from '../config/config-schema.js';
import { createAnthropicProvider } from './anthropic/index.js';
import { createBuiltinProvider } from './builtin/index.js';
import { createGeminiProvider } from './gemini/index.js';
import { createOpenAICompatibleProvider } from './openai-compatible/index.js';
import { createOpenAIProvider } from './openai/index.js';
import type { Provider } from './provider.js';
import { inlinesImageUrls, withInlinedImageUrls } from './with-inlined-image-urls.js';

type ProviderFactory = (config: ProviderConfig) => Provider;

/** One line per provider type: adding a provider is a folder plus a line here. */
const factories: Record<ProviderType, ProviderFactory> = {
  builtin: (config) => createBuiltinProvider({ id: config.id, chunkDelayMs: config.chunk_delay_ms }),
  openai: (config) => createOpenAIProvider(config),
  anthropic: createAnthropicProvider,
  gemini: createGeminiProvider,
  'openai-compatible': createOpenAICompatibleProvider,
};

/**
 * The provider a config entry describes. `outbound` limits the image URLs it fetches for users when it
 * inlines them (see with-inlined-image-urls.ts).
 *
 * @example
 * const provider = createProvider(config.providers[0], config.outbound);
 */
export function createProvider(config: ProviderConfig, outbound: OutboundConfig): Provider {
  const provider = factories[config.type](config);
  return inlinesImageUrls(config) ? withInlinedImageUrls(provider, outbound) : provider;
}
