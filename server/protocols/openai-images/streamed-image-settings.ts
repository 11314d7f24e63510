import type { components } from '../../../generated/api.js';
import type { ImageData, ImageDetails } from '../../core/image-types.js';

type StreamedImage = components['schemas']['ImagesStreamedImage'];
export type StreamedImageSettings = Pick<StreamedImage, 'size' | 'quality' | 'background' | 'output_format'>;

/** The values OpenAI's image events allow (its published spec's enums); anything else is `auto` there. */
const eventSizes: ReadonlySet<string> = new Set<StreamedImage['size']>(['1024x1024', '1024x1536', '1536x1024']);
const eventQualities: ReadonlySet<string> = new Set<StreamedImage['quality']>(['low', 'medium', 'high']);

/**
 * The settings every image event must state, in OpenAI's values: its events require them all, from enums
 * narrower than what the gateway's models do (a built-in 256x256 image, DALL·E's `hd` quality), so an
 * unnamed size or quality is `auto`, the value OpenAI itself uses for "chosen by the model". The format is
 * read from the bytes when the upstream did not say (Gemini does not).
 *
 * @example streamedImageSettings({ size: '256x256', outputFormat: 'png' }, image) // → { size: 'auto', quality: 'auto', background: 'auto', output_format: 'png' }
 */
export function streamedImageSettings(details: ImageDetails, image: ImageData): StreamedImageSettings {
  return {
    size: details.size !== undefined && eventSizes.has(details.size) ? (details.size as StreamedImage['size']) : 'auto',
    quality: details.quality !== undefined && eventQualities.has(details.quality) ? (details.quality as StreamedImage['quality']) : 'auto',
    background: details.background ?? 'auto',
    output_format: details.outputFormat ?? image.format() ?? 'png',
  };
}
