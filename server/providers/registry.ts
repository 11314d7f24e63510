import type { OutboundConfig, ProviderConfig } from '../config/config-schema.js';
import { anthropicProvider } from './anthropic/index.js';
import { azureOpenAIProvider } from './azure-openai/index.js';
import { bedrockProvider } from './bedrock/index.js';
import { builtinProvider } from './builtin/index.js';
import { geminiProvider } from './gemini/index.js';
import { openaiCompatibleProvider } from './openai-compatible/index.js';
import { openaiProvider } from './openai/index.js';
import { vertexProvider } from './vertex/index.js';
import { providerConfigEntries, type ProviderType } from './provider-config-rules.js';
import type { Provider } from './provider.js';
import { withInlinedImageUrls } from './with-inlined-image-urls.js';

/**
 * Every provider type's definition, from its folder: adding a type is its folder, one entry here and one in
 * provider-config-rules.ts (the types' config entries, which the config's schema reads without loading the
 * providers' code). Each table about provider types (capabilities, model descriptions, …) derives from
 * this list.
 */
export const providerDefinitions = [
  openaiProvider,
  anthropicProvider,
  geminiProvider,
  openaiCompatibleProvider,
  builtinProvider,
  azureOpenAIProvider,
  bedrockProvider,
  vertexProvider,
] as const;

/** A definition from the list, with its own `type` and config keys. */
export type RegisteredDefinition = (typeof providerDefinitions)[number];

export { providerTypes, type ProviderType } from './provider-config-rules.js';

// The two lists name the same types in the same order, and each definition spreads its own config entry.
if (
  providerDefinitions.length !== providerConfigEntries.length ||
  providerDefinitions.some((definition, i) => definition.type !== providerConfigEntries[i]!.type || definition.config !== providerConfigEntries[i]!.config)
) {
  throw new Error(
    `providers/registry.ts and providers/provider-config-rules.ts list different provider types: ${providerDefinitions.map((d) => d.type).join(', ')} / ${providerConfigEntries.map((e) => e.type).join(', ')}`,
  );
}

const definitionsByType = new Map<string, RegisteredDefinition>(providerDefinitions.map((definition) => [definition.type, definition]));
if (definitionsByType.size !== providerDefinitions.length) throw new Error(`two provider definitions share a type: ${providerDefinitions.map((d) => d.type).join(', ')}`);

/** What the gateway knows about a provider type (see ProviderDefinition). */
export function providerDefinition(type: ProviderType): RegisteredDefinition {
  return definitionsByType.get(type)!;
}

/**
 * How model lists describe a model of this type and kind.
 *
 * @example describeModel('gemini', 'chat') // 'Served by the gateway from a gemini upstream.'
 */
export function describeModel(type: ProviderType, kind: 'chat' | 'image'): string {
  return providerDefinition(type).describeModel?.(kind) ?? `Served by the gateway from a ${type} upstream.`;
}

/**
 * Whether a provider fetches its requests' image URLs and sends them inline: `inline_image_urls` where the
 * type takes it, else its definition's default (see with-inlined-image-urls.ts).
 *
 * @example
 * inlinesImageUrls({ id: 'local', type: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1' }); // true
 */
export function inlinesImageUrls(config: ProviderConfig): boolean {
  return config.inline_image_urls ?? providerDefinition(config.type).inlinesImageUrls;
}

/**
 * The provider a config entry describes. `outbound` limits the image URLs it fetches for users when it
 * inlines them (see with-inlined-image-urls.ts).
 *
 * @example
 * const provider = createProvider(config.providers[0], config.outbound);
 */
export function createProvider(config: ProviderConfig, outbound: OutboundConfig): Provider {
  const provider = providerDefinition(config.type).create(config);
  return inlinesImageUrls(config) ? withInlinedImageUrls(provider, outbound) : provider;
}
