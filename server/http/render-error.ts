import type { ErrorKind, GatewayError } from '../core/gateway-error.js';
import type { ProtocolFamily } from '../../generated/operations.js';
import { assertNever } from '../core/assert-never.js';

/**
 * An error body in the shape the family's official SDK parses:
 * OpenAI (and admin) `{error:{message,type,param,code}}`, Anthropic `{type:"error",error:{type,message}}`,
 * Gemini `{error:{code,message,status}}`.
 */
export function renderErrorBody(family: ProtocolFamily, error: GatewayError): unknown {
  switch (family) {
    case 'openai':
    case 'admin':
      return {
        error: {
          message: error.message,
          type: openAiType[error.kind],
          param: error.param ?? null,
          code: error.code ?? openAiCode[error.kind],
        },
      };
    case 'anthropic':
      return { type: 'error', error: { type: anthropicType[error.kind], message: error.message } };
    case 'gemini':
      return { error: { code: error.status, message: error.message, status: googleStatus[error.kind] } };
    default:
      return assertNever(family);
  }
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

// https://docs.anthropic.com/en/api/errors
const anthropicType: Record<ErrorKind, string> = {
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
