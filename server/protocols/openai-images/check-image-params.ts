import type { ModelImagesConfig } from '../../config/config-schema.js';
import type { RegisteredModel } from '../../core/model-registry.js';
import type { ImageFormat } from '../../core/image-types.js';
import { GatewayError } from '../../http/gateway-error.js';

export type ImageResponseFormat = ModelImagesConfig['default_response_format'];

/** The parameters of an image request that the model's `images` settings constrain. */
export interface ImageParams {
  n?: number | null;
  size?: string | null;
  responseFormat?: ImageResponseFormat | null;
  outputFormat?: ImageFormat | null;
  background?: string | null;
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
  const responseFormat = params.responseFormat ?? settings.default_response_format;
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

function invalidValue(model: RegisteredModel, param: string, value: string, valid: string): GatewayError {
  return new GatewayError('invalid_request', `Invalid value for '${param}': '${value}'. The model '${model.id}' takes ${valid}.`, {
    param,
    code: 'invalid_value',
  });
}
