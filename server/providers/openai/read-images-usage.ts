import type { ImageUsage } from '../../core/image-types.js';
import { asRecord } from '../upstream/parse-json.js';

/**
 * OpenAI's image `usage` (`input_tokens`, `output_tokens`, `input_tokens_details.text_tokens` and
 * `image_tokens`), from a JSON answer or a completed stream event; undefined when there is none.
 * https://platform.openai.com/docs/api-reference/images/object
 */
export function readImagesUsage(value: unknown): ImageUsage | undefined {
  const usage = asRecord(value);
  if (!usage) return undefined;
  const details = asRecord(usage.input_tokens_details);
  return {
    inputTokens: Number(usage.input_tokens) || 0,
    outputTokens: Number(usage.output_tokens) || 0,
    inputTextTokens: typeof details?.text_tokens === 'number' ? details.text_tokens : undefined,
    inputImageTokens: typeof details?.image_tokens === 'number' ? details.image_tokens : undefined,
  };
}
