import type { GatewayError } from '../../core/gateway-error.js';
import { asRecord } from '../upstream/parse-json.js';
import { upstreamStatusError, type UpstreamErrorDetails } from '../upstream/upstream-error.js';

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

/**
 * An `error` chunk inside a 200 stream (Gemini's way to fail after the headers), as the GatewayError its
 * `code` would have been as an HTTP status, so the router treats it like one.
 */
export function geminiStreamFailure(providerId: string, chunk: Record<string, unknown>): GatewayError {
  const error = asRecord(chunk.error);
  const status = typeof error?.code === 'number' && error.code >= 400 ? error.code : 500;
  // No secrets to scrub by value here; key-shaped strings are still removed.
  return upstreamStatusError(providerId, status, {}, readGeminiError(chunk), []);
}
