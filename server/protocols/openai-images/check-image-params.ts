import type { ModelImagesConfig } from '../../config/config-schema.js';
import type { RegisteredModel } from '../../core/model-registry.js';
import type { ImageFormat } from '../../core/image-types.js';
import { GatewayError } from '../../core/gateway-error.js';

export type ImageResponseFormat = ModelImagesConfig['default_response_format'];

/** The parameters of an image request that the model's `images` settings constrain. */
export interface ImageParams {
  n?: number | null;
  size?: string | null;
  responseFormat?: ImageResponseFormat | null;
  outputFormat?: ImageFormat | null;
  background?: string | null;
  /** Streamed answers carry their images as base64 in the events, whatever `response_format` says. */
  stream?: boolean;
}

/**
 * Checks an image request against what the model takes (its `images` config) and settles the defaults.
 * A value outside is a 400 that names the parameter and lists the valid values, as OpenAI's own
 * `invalid_value` errors do.
 */
export function checkImageParams(model: RegisteredModel, params: ImageParams): { n: number; responseFormat: ImageResponseFormat } {
  const settings = model.images;
  const n = params.n ?? 1;
  if (n > settings.max_n) {
    throw invalidValue(model, 'n', String(n), `at most ${settings.max_n} image${settings.max_n === 1 ? '' : 's'} per request`);
  }
  if (params.size && settings.sizes && !settings.sizes.includes(params.size)) {
    throw invalidValue(model, 'size', params.size, `one of ${settings.sizes.join(', ')}`);
  }
  if (params.stream) checkStreamable(model, params.responseFormat);
  const responseFormat = params.stream ? 'b64_json' : (params.responseFormat ?? settings.default_response_format);
  if (!settings.response_formats.includes(responseFormat)) {
    throw invalidValue(model, 'response_format', responseFormat, `one of ${settings.response_formats.join(', ')}`);
  }
  if (params.outputFormat && !settings.output_formats.includes(params.outputFormat)) {
    throw invalidValue(model, 'output_format', params.outputFormat, `one of ${settings.output_formats.join(', ')}`);
  }
  if (params.background === 'transparent' && params.outputFormat === 'jpeg') {
    throw invalidValue(model, 'background', 'transparent', 'opaque or auto with output_format jpeg, which has no transparency');
  }
  return { n, responseFormat };
}

/**
 * OpenAI's image events have only `b64_json` (https://developers.openai.com/api/reference/resources/images/generation-streaming-events):
 * a client that asked for links would silently get none, so asking for both is refused, and so is a
 * stream from a model configured never to hand out base64.
 */
function checkStreamable(model: RegisteredModel, responseFormat: ImageResponseFormat | null | undefined): void {
  if (responseFormat === 'url') {
    throw new GatewayError('invalid_request', "Invalid value for 'response_format': 'url'. Streamed images arrive as b64_json in the events; leave response_format out or use b64_json.", {
      param: 'response_format',
      code: 'invalid_value',
    });
  }
  if (!model.images.response_formats.includes('b64_json')) {
    throw invalidValue(model, 'stream', 'true', 'only URL answers, which cannot be streamed; leave stream out');
  }
}

function invalidValue(model: RegisteredModel, param: string, value: string, valid: string): GatewayError {
  return new GatewayError('invalid_request', `Invalid value for '${param}': '${value}'. The model '${model.id}' takes ${valid}.`, {
    param,
    code: 'invalid_value',
  });
}
