import type { OutboundConfig, ProviderConfig, ProviderType } from '../config/config-schema.js';
import { anthropicProvider } from './anthropic/index.js';
import { azureOpenAIProvider } from './azure-openai/index.js';
import { bedrockProvider } from './bedrock/index.js';
import { builtinProvider } from './builtin/index.js';
import { geminiProvider } from './gemini/index.js';
import { openaiCompatibleProvider } from './openai-compatible/index.js';
import { openaiProvider } from './openai/index.js';
import { vertexProvider } from './vertex/index.js';
import type { Provider } from './provider.js';
import type { ProviderDefinition } from './provider-definition.js';
import { inlinesImageUrls, withInlinedImageUrls } from './with-inlined-image-urls.js';

/** Every provider type's definition, from its folder; each table about provider types derives from this list. */
const definitions: Record<ProviderType, ProviderDefinition> = Object.fromEntries(
  [openaiProvider, anthropicProvider, geminiProvider, openaiCompatibleProvider, builtinProvider, azureOpenAIProvider, bedrockProvider, vertexProvider].map(
    (definition) => [definition.type, definition],
  ),
) as Record<ProviderType, ProviderDefinition>;

/** What the gateway knows about a provider type (see ProviderDefinition). */
export function providerDefinition(type: ProviderType): ProviderDefinition {
  return definitions[type];
}

/**
 * The provider a config entry describes. `outbound` limits the image URLs it fetches for users when it
 * inlines them (see with-inlined-image-urls.ts).
 *
 * @example
 * const provider = createProvider(config.providers[0], config.outbound);
 */
export function createProvider(config: ProviderConfig, outbound: OutboundConfig): Provider {
  const provider = definitions[config.type].create(config);
  return inlinesImageUrls(config) ? withInlinedImageUrls(provider, outbound) : provider;
}
