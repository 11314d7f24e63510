import type { GatewayError } from '../../core/gateway-error.js';
import { asRecord, parseJson } from '../upstream/parse-json.js';
import { upstreamStatusError, type UpstreamErrorDetails } from '../upstream/upstream-error.js';

/**
 * Reads Bedrock's error body, `{"message": "…"}`; its type travels in the `x-amzn-errortype` header and its
 * class in the HTTP status, which is what the shared error mapping goes by
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_Errors).
 */
export function readBedrockError(body: Record<string, unknown> | undefined): UpstreamErrorDetails {
  const message = body?.message ?? body?.Message;
  return typeof message === 'string' && message !== '' ? { message } : {};
}

/**
 * The HTTP status each ConverseStream exception has as an HTTP answer
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors).
 * A model that failed mid-stream (`modelStreamErrorException`, 424 in the reference) is a server-side failure
 * to us: the request was fine and another attempt may succeed.
 */
const statusForException: Record<string, number> = {
  validationException: 400,
  accessDeniedException: 403,
  resourceNotFoundException: 404,
  modelTimeoutException: 408,
  throttlingException: 429,
  modelNotReadyException: 429,
  serviceQuotaExceededException: 429,
  internalServerException: 500,
  modelStreamErrorException: 500,
  serviceUnavailableException: 503,
};

/** An in-stream exception message as the GatewayError the same error would have been as an HTTP answer. */
export function bedrockStreamError(exceptionType: string, payload: string, providerId: string): GatewayError {
  const key = exceptionType.charAt(0).toLowerCase() + exceptionType.slice(1);
  const status = Object.hasOwn(statusForException, key) ? statusForException[key]! : 500;
  const details = readBedrockError(asRecord(parseJson(payload)));
  return upstreamStatusError(providerId, status, {}, { message: details.message ?? exceptionType, type: exceptionType }, []);
}
