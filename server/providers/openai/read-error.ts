import { GatewayError } from '../../core/gateway-error.js';
import { asRecord } from '../upstream/parse-json.js';
import { scrubSecrets, type UpstreamErrorDetails } from '../upstream/upstream-error.js';

/**
 * Reads an error body from OpenAI or a server that imitates it. OpenAI sends
 * `{error: {message, type, param, code}}` (https://platform.openai.com/docs/guides/error-codes); the
 * imitations vary: `{error: "text"}` (Ollama, llama.cpp's older builds), a flat
 * `{object: "error", message, type, param, code}` (vLLM) and FastAPI's `{detail: "text" | [{msg}]}`
 * (vLLM's and many Python servers' request validation).
 */
export function readOpenAIError(body: Record<string, unknown> | undefined): UpstreamErrorDetails {
  if (!body) return {};
  const nested = asRecord(body.error);
  if (nested) return detailsOf(nested);
  if (typeof body.error === 'string') return { message: body.error };
  if (typeof body.message === 'string') return detailsOf(body);
  const detail = detailText(body.detail);
  return detail ? { message: detail } : {};
}

/**
 * A chunk with a top-level `error` inside a 200 stream: the upstream gave up mid-answer. The upstream's
 * message is kept (minus anything key-shaped), as for a non-2xx answer.
 */
export function streamFailure(providerId: string, chunk: Record<string, unknown>): GatewayError {
  const details = readOpenAIError(chunk);
  const said = details.message ? scrubSecrets(details.message, []) : 'an error without a message';
  return new GatewayError('upstream', `The upstream provider '${providerId}' failed: ${said}`, {
    code: details.code,
    upstream: { providerId },
  });
}

function detailsOf(error: Record<string, unknown>): UpstreamErrorDetails {
  return {
    message: text(error.message),
    type: text(error.type),
    param: text(error.param),
    // vLLM puts the HTTP status (a number) in `code`.
    code: text(error.code),
  };
}

function detailText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return undefined;
  const messages = detail.map((item) => text(asRecord(item)?.msg)).filter((message): message is string => Boolean(message));
  return messages.length ? messages.join('; ') : undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}
