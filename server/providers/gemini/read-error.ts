import { asRecord } from '../upstream/parse-json.js';
import type { UpstreamErrorDetails } from '../upstream/upstream-error.js';

/**
 * Reads Gemini's error body, `{"error":{"code":400,"message":"…","status":"INVALID_ARGUMENT"}}`
 * (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes). `status` is Google's canonical code
 * name, the closest thing Gemini has to OpenAI's `error.type`.
 */
export function readGeminiError(body: Record<string, unknown> | undefined): UpstreamErrorDetails {
  const error = asRecord(body?.error);
  if (!error) return {};
  return {
    message: typeof error.message === 'string' && error.message !== '' ? error.message : undefined,
    type: typeof error.status === 'string' ? error.status : undefined,
  };
}
