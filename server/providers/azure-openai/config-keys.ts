import { z } from 'zod';
import type { ConfigProblem, ProviderEntry, ProviderTypeEntry } from '../../config/provider-entry.js';
import { openAIConfigKeys } from '../openai/config-keys.js';

/** Azure's data-plane versions: a date, sometimes with a suffix (`2025-04-01-preview`). */
const apiVersionPattern = /^\d{4}-\d{2}-\d{2}(-[a-z]+)?$/;

/** OpenAI's keys (Azure serves OpenAI's models and wire formats) and the data-plane version. */
export const azureOpenAIConfigKeys = {
  ...openAIConfigKeys,
  /**
   * The data-plane API version (`2024-10-21`); with it calls go to the deployment named by `upstream_model`,
   * without it to Azure's v1 API (see azure-path.ts).
   */
  api_version: z.string().min(1).optional(),
};

/**
 * What an `azure-openai` provider entry needs. The base URL is the resource endpoint: the gateway adds
 * `/openai/…` itself, so a URL that already ends in it would double it.
 */
export function azureOpenAIConfigProblems(provider: ProviderEntry<typeof azureOpenAIConfigKeys>): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (!provider.base_url) {
    problems.push({ path: ['base_url'], message: 'an azure-openai provider needs base_url, its resource endpoint such as https://my-resource.openai.azure.com' });
  } else if (/\/openai(\/v1|\/deployments(\/.*)?)?\/?$/.test(new URL(provider.base_url).pathname)) {
    problems.push({
      path: ['base_url'],
      message: 'base_url is the resource endpoint (https://my-resource.openai.azure.com) without /openai…: the gateway adds the API path itself',
    });
  }
  if (!provider.api_key) problems.push({ path: ['api_key'], message: 'an azure-openai provider needs api_key (sent in the api-key header)' });
  if (provider.api_version !== undefined && !apiVersionPattern.test(provider.api_version)) {
    problems.push({ path: ['api_version'], message: `api_version '${provider.api_version}' is not an Azure OpenAI API version such as 2024-10-21 or 2025-04-01-preview` });
  }
  return problems;
}

/** The `azure-openai` type's part of the config file (see ProviderTypeEntry), listed in ../provider-config-rules.ts; its code is index.ts. */
export const azureOpenAIConfigEntry: ProviderTypeEntry<'azure-openai', typeof azureOpenAIConfigKeys> = {
  type: 'azure-openai',
  serves: { chat: true, responses: true, images: true, embeddings: true, batches: false },
  config: { keys: azureOpenAIConfigKeys, problems: azureOpenAIConfigProblems },
};
