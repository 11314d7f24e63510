import type { components } from '../../../generated/api.js';
import type { ErrorKind, GatewayError } from '../../core/gateway-error.js';

/** An error body in the shape Google's SDKs parse, `{error:{code,message,status}}`. */
export function renderGeminiError(error: GatewayError): components['schemas']['GeminiError'] {
  return { error: { code: error.status, message: error.message, status: googleStatus[error.kind] } };
}

// https://cloud.google.com/apis/design/errors#handling_errors
const googleStatus: Record<ErrorKind, string> = {
  invalid_request: 'INVALID_ARGUMENT',
  authentication: 'UNAUTHENTICATED',
  permission: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  request_too_large: 'INVALID_ARGUMENT',
  unsupported_media_type: 'INVALID_ARGUMENT',
  rate_limited: 'RESOURCE_EXHAUSTED',
  timeout: 'DEADLINE_EXCEEDED',
  upstream: 'UNAVAILABLE',
  overloaded: 'UNAVAILABLE',
  not_implemented: 'UNIMPLEMENTED',
  internal: 'INTERNAL',
};
