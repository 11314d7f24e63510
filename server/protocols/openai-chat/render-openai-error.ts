import type { components } from '../../../generated/api.js';
import type { ErrorKind, GatewayError } from '../../core/gateway-error.js';

/**
 * An error body in the shape OpenAI's SDKs parse, `{error:{message,type,param,code}}`: the error body of
 * every OpenAI-family protocol (Chat Completions, Responses, Images, Embeddings) and of the admin API.
 */
export function renderOpenAIError(error: GatewayError): components['schemas']['OpenAIError'] {
  return {
    error: {
      message: error.message,
      type: openAiType[error.kind],
      param: error.param ?? null,
      code: error.code ?? openAiCode[error.kind],
    },
  };
}

// https://platform.openai.com/docs/guides/error-codes
const openAiType: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'invalid_request_error',
  request_too_large: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  timeout: 'timeout_error',
  upstream: 'upstream_error',
  overloaded: 'server_error',
  not_implemented: 'not_implemented',
  internal: 'server_error',
};

const openAiCode: Record<ErrorKind, string | null> = {
  invalid_request: 'invalid_request',
  authentication: 'invalid_api_key',
  permission: 'permission_denied',
  not_found: 'not_found',
  request_too_large: 'request_too_large',
  unsupported_media_type: 'unsupported_media_type',
  rate_limited: 'rate_limit_exceeded',
  timeout: 'timeout',
  upstream: 'upstream_error',
  overloaded: 'overloaded',
  not_implemented: 'not_implemented',
  internal: 'internal_error',
};
