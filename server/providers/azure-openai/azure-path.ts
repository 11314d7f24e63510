import type { OpenAIOperation, OpenAIPath } from '../openai/paths.js';

/**
 * Operations Azure serves per deployment in the dated API (`/openai/deployments/<deployment>/…`); the others
 * (`/responses`) sit at `/openai/…` with the deployment as `model` in the body. The same set as the openai
 * SDK's AzureOpenAI client (`_deployments_endpoints` in openai/azure.js).
 */
const perDeployment = new Set<OpenAIOperation>(['/chat/completions', '/embeddings', '/images/generations', '/images/edits']);

/**
 * Azure OpenAI's URL for a call, under the resource endpoint
 * (https://learn.microsoft.com/azure/ai-foundry/openai/reference and …/api-version-lifecycle):
 * - with `apiVersion`: `/openai/deployments/<upstream model>/chat/completions?api-version=<apiVersion>`;
 * - without it, the v1 API: `/openai/v1/chat/completions`, the model in the body as in OpenAI's API.
 *
 * @example
 * azurePath('2024-10-21')('/chat/completions', 'gpt-4o'); // '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21'
 * azurePath(undefined)('/chat/completions', 'gpt-4o'); // '/openai/v1/chat/completions'
 */
export function azurePath(apiVersion: string | undefined): OpenAIPath {
  if (apiVersion === undefined) return (operation) => `/openai/v1${operation}`;
  const query = `?api-version=${encodeURIComponent(apiVersion)}`;
  return (operation, upstreamModel) =>
    perDeployment.has(operation) ? `/openai/deployments/${encodeURIComponent(upstreamModel)}${operation}${query}` : `/openai${operation}${query}`;
}
