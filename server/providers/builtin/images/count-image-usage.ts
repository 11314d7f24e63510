/** The built-in image models' token usage, counted by the same rules as the built-in chat model's. */
import type { ImageUsage } from '../../../core/image-types.js';
import { countTextTokens, IMAGE_TOKEN_ESTIMATE } from '../../../core/token-counter.js';

/**
 * The prompt's o200k_base tokens and the flat image cost the token counter gives any image, per source
 * image. The built-in models draw rather than generate tokens, so they report no output tokens: a model
 * priced per image is billed by `per_image`.
 *
 * @example countImageUsage('a red sun', 1) // → { inputTokens: 88, outputTokens: 0, inputTextTokens: 3, inputImageTokens: 85 }
 */
export function countImageUsage(prompt: string, sourceImages = 0): ImageUsage {
  const inputTextTokens = countTextTokens(prompt);
  const inputImageTokens = sourceImages * IMAGE_TOKEN_ESTIMATE;
  return { inputTokens: inputTextTokens + inputImageTokens, outputTokens: 0, inputTextTokens, inputImageTokens };
}
