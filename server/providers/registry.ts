import type { OutboundConfig, ProviderConfig } from '../config/config-schema.js';
import { anthropicProvider } from './anthropic/index.js';
import { azureOpenAIProvider } from './azure-openai/index.js';
import { bedrockProvider } from './bedrock/index.js';
import { builtinProvider } from './builtin/index.js';
import { geminiProvider } from './gemini/index.js';
import { openaiCompatibleProvider } from './openai-compatible/index.js';
import { openaiProvider } from './openai/index.js';
import { vertexProvider } from './vertex/index.js';
import type { ProviderType } from './provider-config-rules.js';
import type { ProviderDefinition } from './provider-definition.js';
import type { Provider } from './provider.js';
import { withInlinedImageUrls } from './with-inlined-image-urls.js';

/**
 * Each provider type's definition (its folder's index.ts), under the type its config entry names. The types
 * are the one list in provider-config-rules.ts, which the config's schema reads without loading any
 * provider's code; this table enumerates them again only because that list must not import the code here,
 * and the compiler holds the two together: a type missing here (`Property 'vertex' is missing`) or one the
 * list does not name fails the type check. Adding a type is its folder, one line in that list and one here.
 * Each table about provider types (capabilities, model descriptions, …) derives from this one.
 */
const providerDefinitions: Record<ProviderType, ProviderDefinition> = {
  openai: openaiProvider,
  anthropic: anthropicProvider,
  gemini: geminiProvider,
  'openai-compatible': openaiCompatibleProvider,
  builtin: builtinProvider,
  'azure-openai': azureOpenAIProvider,
  bedrock: bedrockProvider,
  vertex: vertexProvider,
};

export { providerTypes, type ProviderType } from './provider-config-rules.js';

/** What the gateway knows about a provider type (see ProviderDefinition). */
export function providerDefinition(type: ProviderType): ProviderDefinition {
  return providerDefinitions[type];
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
