/**
 * Reads an edit prompt as a list of transformations. Keywords are data (a table, in the order the steps
 * run); a prompt with none still gets a visible change derived from its hash.
 */
import { hexToRgb, hslToHex, rgbToHex, type Rgb } from './colour-math.js';
import { findColourWords } from './colour-words.js';
import { hasPhrase, normalizePrompt } from './prompt-words.js';
import { hashSeed } from './seeded-random.js';

/** One transformation; sizes that depend on the image (blur radius, pixel block) are chosen when applied. */
export type EditStep =
  | { kind: 'greyscale' }
  | { kind: 'sepia' }
  | { kind: 'negate' }
  | { kind: 'blur' }
  | { kind: 'sharpen' }
  | { kind: 'brightness'; factor: number }
  | { kind: 'saturation'; factor: number }
  | { kind: 'flip' }
  | { kind: 'flop' }
  | { kind: 'rotate180' }
  | { kind: 'pixelate' }
  | { kind: 'hue'; degrees: number }
  /** Moves every pixel `strength` (0–1) of the way toward `colour`. */
  | { kind: 'tint'; colour: string; strength: number };

/** Keyword phrases and their step, in the order the steps run. */
const keywordSteps: ReadonlyArray<{ phrases: readonly string[]; step: EditStep }> = [
  { phrases: ['grayscale', 'greyscale', 'black and white', 'monochrome'], step: { kind: 'greyscale' } },
  { phrases: ['sepia', 'vintage'], step: { kind: 'sepia' } },
  { phrases: ['invert', 'inverted', 'negative'], step: { kind: 'negate' } },
  { phrases: ['blur', 'blurry', 'blurred', 'soften', 'dreamy'], step: { kind: 'blur' } },
  { phrases: ['sharpen', 'sharper', 'crisp'], step: { kind: 'sharpen' } },
  { phrases: ['brighten', 'brighter', 'lighter'], step: { kind: 'brightness', factor: 1.4 } },
  { phrases: ['darken', 'darker', 'night'], step: { kind: 'brightness', factor: 0.55 } },
  { phrases: ['saturate', 'vivid', 'vibrant'], step: { kind: 'saturation', factor: 1.8 } },
  { phrases: ['desaturate', 'muted', 'faded'], step: { kind: 'saturation', factor: 0.35 } },
  { phrases: ['flip', 'flipped'], step: { kind: 'flip' } },
  { phrases: ['mirror', 'mirrored'], step: { kind: 'flop' } },
  { phrases: ['rotate', 'rotated', 'upside down'], step: { kind: 'rotate180' } },
  { phrases: ['pixelate', 'pixelated', 'pixel art'], step: { kind: 'pixelate' } },
];

/** Strong enough to see, weak enough to keep the picture recognisable. */
const COLOUR_TINT_STRENGTH = 0.35;
const FALLBACK_TINT_STRENGTH = 0.25;
const VARIANT_TINT_STRENGTH = 0.2;

/**
 * The steps the prompt asks for, in table order, then a tint toward the colours it names (averaged).
 * Empty when the prompt names nothing: see {@link planFallbackEdit}.
 *
 * @example planEdit('a vintage, mirrored photo in blue') // → sepia, flop, tint toward blue
 */
export function planEdit(prompt: string): EditStep[] {
  let text = normalizePrompt(prompt);
  const steps: EditStep[] = [];
  for (const { phrases, step } of keywordSteps) {
    const matched = phrases.filter((phrase) => hasPhrase(text, phrase));
    if (matched.length > 0) steps.push(step);
    // "black and white" asks for greyscale, not for a tint toward black and white.
    for (const phrase of matched) if (phrase.includes(' ')) text = ` ${text} `.replaceAll(` ${phrase} `, ' ').trim();
  }
  const colours = findColourWords(text);
  if (colours.length > 0) steps.push({ kind: 'tint', colour: averageColour(colours), strength: COLOUR_TINT_STRENGTH });
  return steps;
}

/**
 * A hue rotation of 60–300 degrees (at least 60 either way round) and a tint, both from the prompt's hash:
 * used when the prompt names no transformation, or the ones it names changed nothing (sharpening a flat
 * colour), so an edit always shows.
 */
export function planFallbackEdit(prompt: string): EditStep[] {
  const seed = hashSeed('edit', prompt);
  return [
    { kind: 'hue', degrees: 60 + (seed % 241) },
    { kind: 'tint', colour: hslToHex((seed >>> 9) % 360, 0.7, 0.5), strength: FALLBACK_TINT_STRENGTH },
  ];
}

/**
 * What sets variant `variant` of `count` apart: hue shifts spread evenly round the wheel, plus a tint of
 * that hue so that variants of a greyscale result differ too. Variant 0 is the plain edit.
 */
export function planVariantEdit(variant: number, count: number): EditStep[] {
  if (variant <= 0) return [];
  const degrees = Math.round((variant * 360) / Math.max(count, variant + 1));
  return [
    { kind: 'hue', degrees },
    { kind: 'tint', colour: hslToHex(degrees, 0.8, 0.5), strength: VARIANT_TINT_STRENGTH },
  ];
}

function averageColour(colours: string[]): string {
  const sum = colours.map(hexToRgb).reduce<Rgb>((total, rgb) => [total[0] + rgb[0], total[1] + rgb[1], total[2] + rgb[2]], [0, 0, 0]);
  return rgbToHex(sum.map((channel) => channel / colours.length) as Rgb);
}
