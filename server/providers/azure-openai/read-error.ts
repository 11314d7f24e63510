import { readOpenAIError } from '../openai/read-error.js';
import { asRecord } from '../upstream/parse-json.js';
import type { UpstreamErrorDetails } from '../upstream/upstream-error.js';

/**
 * Azure's errors are OpenAI's shape (`{error: {code, message}}`, `code` often a name such as
 * `DeploymentNotFound`), except a prompt its content filter blocked: a 400 with `code: "content_filter"` and
 * the verdict per category in `innererror.content_filter_result`
 * (https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter). Its message talks of a
 * "content management policy"; the client is told plainly that the content filter blocked the prompt, and why.
 */
export function readAzureOpenAIError(body: Record<string, unknown> | undefined): UpstreamErrorDetails {
  const details = readOpenAIError(body);
  if (details.code !== 'content_filter') return details;
  const verdicts = asRecord(asRecord(asRecord(body?.error)?.innererror)?.content_filter_result);
  const categories = Object.entries(verdicts ?? {})
    .filter(([, verdict]) => asRecord(verdict)?.filtered === true)
    .map(([category, verdict]) => (typeof asRecord(verdict)?.severity === 'string' ? `${category} (${asRecord(verdict)?.severity})` : category));
  const why = categories.length > 0 ? `: ${categories.join(', ')}` : '';
  return { ...details, message: `Azure OpenAI's content filter blocked the prompt${why}. ${details.message ?? ''}`.trim() };
}
