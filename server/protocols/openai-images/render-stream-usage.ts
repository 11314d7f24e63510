import type { components } from '../../../generated/api.js';
import type { ImageUsage } from '../../core/image-types.js';

type StreamUsage = components['schemas']['ImagesStreamUsage'];

/**
 * A completed event's `usage`, which OpenAI's events require whole, its input split included: zero where
 * the upstream reported nothing (the ledger then estimates, as for any answer without usage).
 *
 * @example renderStreamUsage({ inputTokens: 50, outputTokens: 4160, inputTextTokens: 10, inputImageTokens: 40 })
 */
export function renderStreamUsage(usage: ImageUsage | undefined): StreamUsage {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_tokens_details: { text_tokens: usage?.inputTextTokens ?? 0, image_tokens: usage?.inputImageTokens ?? 0 },
  };
}
