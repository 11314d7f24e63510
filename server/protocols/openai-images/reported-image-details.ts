import type { components } from '../../../generated/api.js';

type ImagesResponse = components['schemas']['ImagesResponse'];

/** The sizes and qualities an OpenAI Images answer may name (OpenAI's spec has no others there). */
const sizes: ReadonlySet<string> = new Set<NonNullable<ImagesResponse['size']>>(['1024x1024', '1024x1536', '1536x1024']);
const qualities: ReadonlySet<string> = new Set<NonNullable<ImagesResponse['quality']>>(['low', 'medium', 'high']);

/**
 * The `size` an answer reports: the images' own, when it is one of OpenAI's three. The built-in models
 * draw any size and an edit keeps its source's (an 8x8 PNG stays 8x8), which OpenAI's answer cannot say,
 * so it is left out (the field is optional) rather than sent outside the enum clients are typed with.
 *
 * @example reportedSize('1536x1024') // → '1536x1024'
 * @example reportedSize('8x8') // → undefined
 */
export function reportedSize(size: string | undefined): ImagesResponse['size'] {
  return size !== undefined && sizes.has(size) ? (size as ImagesResponse['size']) : undefined;
}

/**
 * The `quality` an answer reports, when it is one of OpenAI's three: `auto` (what the built-in models
 * echo when asked for none) or DALL·E's `standard`/`hd` is left out.
 *
 * @example reportedQuality('high') // → 'high'
 * @example reportedQuality('auto') // → undefined
 */
export function reportedQuality(quality: string | undefined): ImagesResponse['quality'] {
  return quality !== undefined && qualities.has(quality) ? (quality as ImagesResponse['quality']) : undefined;
}
