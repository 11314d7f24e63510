import { readFile } from 'node:fs/promises';
import { ImageData, imageMimeTypes, parseImageSize, type ImageOptions, type ImageResult, type ImageUsage, type SourceImage } from '../../core/image-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { CallContext, ImageProvider } from '../provider.js';
import { asRecord } from '../upstream/parse-json.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { geminiModelPath } from './forward-generate.js';
import { readGeminiUsage } from './read-usage.js';
import type { GeminiUsageMetadata } from './stream-schemas.js';

/** The aspect ratios Gemini's image models take (`imageConfig.aspectRatio`). */
const aspectRatios = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

/**
 * Images from Gemini's image-output models (`gemini-2.5-flash-image` and later) through `:generateContent`
 * with `responseModalities: [TEXT, IMAGE]`; the images come back as `inlineData` parts. Gemini makes one
 * image per call, so `n` images are `n` calls in parallel. A size becomes the nearest aspect ratio Gemini
 * has; Gemini picks the pixels. Edits send the source images as inline parts before the prompt.
 */
export function createGeminiImages(client: UpstreamClient): ImageProvider {
  const generateOne = async (parts: unknown[], options: ImageOptions, context: CallContext) => {
    const aspectRatio = nearestAspectRatio(options.size);
    const body = {
      contents: [{ role: 'user', parts }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], ...(aspectRatio ? { imageConfig: { aspectRatio } } : {}) },
    };
    return client.exchangeJson(geminiModelPath(context.upstreamModel, 'generateContent'), body, context.signal);
  };
  const generateAll = async (parts: unknown[], options: ImageOptions, context: CallContext): Promise<ImageResult> => {
    const answers = await Promise.all(Array.from({ length: options.n }, () => generateOne(parts, options, context)));
    return toImageResult(answers);
  };
  return {
    generate: (request, context) => generateAll([{ text: request.prompt }], request, context),
    async edit(request, context) {
      if (request.mask) {
        throw new GatewayError('invalid_request', 'Gemini image models take no mask; describe the area to change in the prompt instead.', { param: 'mask' });
      }
      const images = await Promise.all(request.images.map(inlinePart));
      return generateAll([...images, { text: request.prompt }], request, context);
    },
  };
}

async function inlinePart(image: SourceImage): Promise<unknown> {
  return { inlineData: { mimeType: imageMimeTypes[image.format], data: (await readFile(image.path)).toString('base64') } };
}

/** `1536x1024` → `3:2`: the ratio Gemini has that is closest to the asked one. */
export function nearestAspectRatio(size: string | undefined): string | undefined {
  const parsed = parseImageSize(size);
  if (!parsed) return undefined;
  const asked = Math.log(parsed.width / parsed.height);
  const distance = (ratio: string) => {
    const [w, h] = ratio.split(':').map(Number);
    return Math.abs(Math.log(w! / h!) - asked);
  };
  return aspectRatios.reduce((best, ratio) => (distance(ratio) < distance(best) ? ratio : best));
}

/**
 * Every inline image of every answer. An answer without one (a refusal, a safety block, text only) fails
 * the request with what Gemini said, rather than returning fewer images than asked.
 */
function toImageResult(answers: Record<string, unknown>[]): ImageResult {
  const images: ImageResult['images'] = [];
  const usage: ImageUsage = { inputTokens: 0, outputTokens: 0 };
  for (const answer of answers) {
    const candidate = asRecord(Array.isArray(answer.candidates) ? answer.candidates[0] : undefined);
    const parts = asRecord(candidate?.content)?.parts;
    const found = (Array.isArray(parts) ? parts : [])
      .map((part) => asRecord(asRecord(part)?.inlineData))
      .filter((inline) => typeof inline?.data === 'string' && String(inline.mimeType ?? '').startsWith('image/'));
    if (found.length === 0) throw noImage(answer, candidate, parts);
    for (const inline of found) images.push({ data: ImageData.fromBase64(inline!.data as string) });
    const metadata = asRecord(answer.usageMetadata);
    if (metadata) {
      const counted = readGeminiUsage(metadata as GeminiUsageMetadata);
      usage.inputTokens += counted.inputTokens;
      usage.outputTokens += counted.outputTokens;
      addPromptModalities(usage, metadata.promptTokensDetails);
    }
  }
  return { images, usage: usage.inputTokens + usage.outputTokens > 0 ? usage : undefined };
}

/**
 * Gemini splits the prompt's tokens by modality (`promptTokensDetails: [{modality: 'TEXT', tokenCount}]`);
 * OpenAI's usage has the same split as `input_tokens_details`. Once any answer reports it, a modality it
 * leaves out has no tokens.
 */
function addPromptModalities(usage: ImageUsage, details: unknown): void {
  if (!Array.isArray(details)) return;
  usage.inputTextTokens ??= 0;
  usage.inputImageTokens ??= 0;
  for (const detail of details) {
    const { modality, tokenCount } = asRecord(detail) ?? {};
    if (typeof tokenCount !== 'number') continue;
    if (modality === 'TEXT') usage.inputTextTokens += tokenCount;
    else if (modality === 'IMAGE') usage.inputImageTokens += tokenCount;
  }
}

function noImage(answer: Record<string, unknown>, candidate: Record<string, unknown> | undefined, parts: unknown): GatewayError {
  const blocked = asRecord(answer.promptFeedback)?.blockReason;
  const text = (Array.isArray(parts) ? parts : []).map((part) => asRecord(part)?.text).filter((value) => typeof value === 'string').join(' ');
  const reason = blocked ?? candidate?.finishReason;
  const said = [reason ? `finish reason ${String(reason)}` : undefined, text ? `it said: "${text.slice(0, 300)}"` : undefined].filter(Boolean).join('; ');
  return new GatewayError('invalid_request', `The model returned no image${said ? ` (${said})` : ''}.`, { code: 'no_image_generated' });
}
