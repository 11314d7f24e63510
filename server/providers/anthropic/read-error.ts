import { GatewayError } from '../../core/gateway-error.js';
import { asRecord } from '../upstream/parse-json.js';
import { upstreamStatusError, type UpstreamErrorDetails } from '../upstream/upstream-error.js';

/**
 * Reads Anthropic's error body, `{"type":"error","error":{"type":"invalid_request_error","message":"…"}}`
 * (https://docs.anthropic.com/en/api/errors). The same JSON arrives as an in-stream `event: error`.
 */
export function readAnthropicError(body: Record<string, unknown> | undefined): UpstreamErrorDetails {
  const error = asRecord(body?.error);
  if (!error) return {};
  return {
    message: typeof error.message === 'string' && error.message !== '' ? error.message : undefined,
    type: typeof error.type === 'string' ? error.type : undefined,
  };
}

/**
 * The HTTP status Anthropic uses for each error type (https://docs.anthropic.com/en/api/errors). An error
 * inside a 200 stream has no status of its own, so this lets it be classified like a non-2xx answer.
 */
const statusForErrorType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/**
 * An in-stream `event: error` payload as the GatewayError the same error would have been as an HTTP
 * answer. Unknown types count as a server-side failure (500).
 */
export function anthropicStreamError(payload: Record<string, unknown> | undefined, providerId: string): GatewayError {
  const details = readAnthropicError(payload);
  const status = (details.type && Object.hasOwn(statusForErrorType, details.type) ? statusForErrorType[details.type] : undefined) ?? 500;
  // No configured secrets are known here; upstreamStatusError still scrubs anything key-shaped.
  return upstreamStatusError(providerId, status, {}, details, []);
}
