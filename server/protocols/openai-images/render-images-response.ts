import type { components } from '../../../generated/api.js';
import type { ImageResult, ProducedImage } from '../../core/image-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ImageStorage } from '../../image-files/image-storage.js';
import type { ImageResponseFormat } from './check-image-params.js';
import { reportedQuality, reportedSize } from './reported-image-details.js';

type ImagesResponse = components['schemas']['ImagesResponse'];
type ImagesImage = components['schemas']['ImagesImage'];

export interface ImageDelivery {
  responseFormat: ImageResponseFormat;
  storage: ImageStorage;
  /** How long a URL works, from now. */
  ttlMs: number;
  /** Where `/v1/images/files/…` is reached, without `/v1`. */
  baseUrl: string;
}

/**
 * The OpenAI Images response for what a provider made: each image as `b64_json`, or stored and linked as
 * `url`, as the request's (or the model's default) `response_format` says. `created` is when the images
 * were ready, and the upstream's own details (`size`, `output_format`, `usage`…) are passed on, `size`
 * and `quality` only with the values OpenAI's answer can hold (reported-image-details.ts).
 */
export async function renderImagesResponse(result: ImageResult, delivery: ImageDelivery): Promise<ImagesResponse> {
  const expiresAt = Date.now() + delivery.ttlMs;
  const data = await Promise.all(result.images.map((image) => renderImage(image, delivery, expiresAt)));
  const response: ImagesResponse = { created: Math.floor(Date.now() / 1000), data };
  if (result.background) response.background = result.background;
  if (result.outputFormat) response.output_format = result.outputFormat;
  const quality = reportedQuality(result.quality);
  if (quality) response.quality = quality;
  const size = reportedSize(result.size);
  if (size) response.size = size;
  if (result.usage) {
    const { inputTokens, outputTokens, inputTextTokens, inputImageTokens } = result.usage;
    // OpenAI's spec requires the input split; a part the model did not report is 0.
    const input_tokens_details = { text_tokens: inputTextTokens ?? 0, image_tokens: inputImageTokens ?? 0 };
    response.usage = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens, input_tokens_details };
  }
  return response;
}

async function renderImage(image: ProducedImage, delivery: ImageDelivery, expiresAt: number): Promise<ImagesImage> {
  const rendered: ImagesImage = {};
  if (delivery.responseFormat === 'b64_json') {
    rendered.b64_json = image.data.base64();
  } else {
    const format = image.data.format();
    if (!format) {
      throw new GatewayError('upstream', 'The model returned an image that is not PNG, JPEG or WebP, so it cannot be served as a URL.');
    }
    const name = await delivery.storage.save(image.data.bytes(), format, expiresAt);
    rendered.url = `${delivery.baseUrl}/v1/images/files/${name}`;
  }
  if (image.revisedPrompt) rendered.revised_prompt = image.revisedPrompt;
  return rendered;
}
