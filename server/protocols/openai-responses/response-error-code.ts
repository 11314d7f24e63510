import type { components } from '../../../generated/api.js';

type ResponseErrorCode = NonNullable<components['schemas']['ResponsesResponse']['error']>['code'];

/** The codes OpenAI's spec allows in a failed response's `error` (its `ResponseErrorCode`); typed against our spec's copy of the list. */
const openAiCodes: Record<ResponseErrorCode, true> = {
  server_error: true,
  rate_limit_exceeded: true,
  invalid_prompt: true,
  data_residency_mismatch: true,
  bio_policy: true,
  vector_store_timeout: true,
  invalid_image: true,
  invalid_image_format: true,
  invalid_base64_image: true,
  invalid_image_url: true,
  image_too_large: true,
  image_too_small: true,
  image_parse_error: true,
  image_content_policy_violation: true,
  invalid_image_mode: true,
  image_file_too_large: true,
  unsupported_image_media_type: true,
  empty_image_file: true,
  failed_to_download_image: true,
  image_file_not_found: true,
};

/**
 * The `code` of a failed response's `error`: OpenAI's SDKs type it as one of OpenAI's codes, so the
 * gateway's own (`upstream_error`, `timeout`, …) become `server_error`, which is what a failure past the
 * client's control is to OpenAI. The `error` event sent before `response.failed` keeps the gateway's code.
 *
 * @example responseErrorCode('upstream_error') // → 'server_error'
 * @example responseErrorCode('rate_limit_exceeded') // → 'rate_limit_exceeded'
 */
export function responseErrorCode(code: string | null | undefined): ResponseErrorCode {
  return code && Object.hasOwn(openAiCodes, code) ? (code as ResponseErrorCode) : 'server_error';
}
