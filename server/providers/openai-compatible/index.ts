/**
 * Servers that speak OpenAI's Chat Completions without being OpenAI: vLLM, Ollama, llama.cpp, Groq,
 * DeepSeek, OpenRouter, LM Studio… They share the OpenAI provider's code; what differs between them is
 * described by `quirks` (see quirks.ts for the defaults and why).
 */
import type { ProviderConfig } from '../../config/config-schema.js';
import { createOpenAIProvider } from '../openai/index.js';
import type { Provider } from '../provider.js';
import { resolveQuirks } from './quirks.js';
import type { ProviderDefinition } from '../provider-definition.js';

/**
 * Creates an OpenAI-compatible provider. `base_url` is required (there is no default server) and, like
 * the OpenAI SDK's, includes the version prefix: `http://localhost:11434/v1` for Ollama.
 *
 * @example
 * createOpenAICompatibleProvider({ id: 'local', type: 'openai-compatible', base_url: 'http://localhost:8000/v1' });
 */
export function createOpenAICompatibleProvider(config: ProviderConfig): Provider {
  if (!config.base_url) {
    throw new Error(
      `Provider '${config.id}' (type openai-compatible) needs a base_url, such as http://localhost:11434/v1 for Ollama or http://localhost:8000/v1 for vLLM.`,
    );
  }
  return createOpenAIProvider(config, resolveQuirks(config.quirks, config.type));
}

/**
 * A self-hosted model is unknown: only what every OpenAI-compatible server implements is assumed (no images
 * in). The servers mostly offer `/embeddings` too. Ollama and llama.cpp take images only inline, so image URLs
 * are fetched for them unless `inline_image_urls: false`.
 */
export const openaiCompatibleProvider: ProviderDefinition = {
  defaultCapabilities: ['chat', 'streaming', 'tools', 'json_schema'],
  tokenLimits: { input: 32_768, output: 8_192 },
  inlinesImageUrls: true,
  genAiName: 'openai_compatible',
  create: createOpenAICompatibleProvider,
};
