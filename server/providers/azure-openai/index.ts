/**
 * Azure OpenAI (`type: azure-openai`): OpenAI's models and wire formats behind Azure's URLs and key header.
 * Everything but where calls go (azure-path.ts), how the key is sent and how content-filter refusals read
 * (read-error.ts) is the OpenAI provider's: translation, Chat Completions and Responses pass-through, images, embeddings.
 * Azure's additions to the answers (`prompt_filter_results`, per-choice `content_filter_results`) pass
 * through untouched; SDKs ignore fields they do not know.
 */
import type { ProviderConfig } from '../../config/config-schema.js';
import { resolveQuirks } from '../openai-compatible/quirks.js';
import { createOpenAIProvider } from '../openai/index.js';
import type { Provider } from '../provider.js';
import type { ProviderDefinition } from '../provider-definition.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { azurePath } from './azure-path.js';
import { readAzureOpenAIError } from './read-error.js';

/**
 * Creates an Azure OpenAI provider. `base_url` (the resource endpoint) and `api_key` are required; the
 * config schema says so at start-up (config-keys.ts).
 *
 * @example
 * createAzureOpenAIProvider({ id: 'azure', type: 'azure-openai', base_url: 'https://my-resource.openai.azure.com', api_key, api_version: '2024-10-21' });
 */
export function createAzureOpenAIProvider(config: ProviderConfig): Provider {
  if (!config.base_url || !config.api_key) throw new Error(`Provider '${config.id}' (type azure-openai) needs base_url and api_key.`);
  const client = new UpstreamClient(config, config.base_url, { readError: readAzureOpenAIError, headers: { 'api-key': config.api_key } });
  // Azure serves OpenAI's own models, so OpenAI's defaults hold (max_completion_tokens, developer role, usage in streams).
  return createOpenAIProvider(config, resolveQuirks(config.quirks, 'openai'), { client, path: azurePath(config.api_version) });
}

/** OpenAI's models, so OpenAI's capabilities, keys and services (embeddings included); the deployment decides which model it is. */
export const azureOpenAIProvider: ProviderDefinition = {
  defaultCapabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema'],
  tokenLimits: { input: 128_000, output: 16_384 },
  inlinesImageUrls: false,
  genAiName: 'azure.ai.openai',
  create: createAzureOpenAIProvider,
};
