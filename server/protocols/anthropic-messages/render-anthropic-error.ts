import type { components } from '../../../generated/api.js';
import type { ErrorKind, GatewayError } from '../../core/gateway-error.js';

type AnthropicError = components['schemas']['AnthropicError'];

/** An error body in the shape Anthropic's SDKs parse, `{type:"error",error:{type,message}}`. */
export function renderAnthropicError(error: GatewayError): AnthropicError {
  return { type: 'error', error: { type: anthropicType[error.kind], message: error.message } };
}

// https://docs.anthropic.com/en/api/errors
const anthropicType: Record<ErrorKind, AnthropicError['error']['type']> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  request_too_large: 'request_too_large',
  unsupported_media_type: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  timeout: 'timeout_error',
  upstream: 'api_error',
  overloaded: 'overloaded_error',
  not_implemented: 'api_error',
  internal: 'api_error',
};
