/**
 * Chooses a generated image's colours: a mood's palette when the prompt names one, the named colours and
 * their shades when it names colours, otherwise a harmony around a hue drawn from the seed.
 */
import { hslToHex, mixHex } from './colour-math.js';
import { findColourWords, findMood } from './colour-words.js';
import type { SeededRandom } from './seeded-random.js';

/** The colours of one generated image. */
export interface Palette {
  /** Gradient stops, top then bottom. */
  background: [string, string];
  /** At least four colours for shapes, the most important first. */
  shapes: string[];
}

const MIN_SHAPE_COLOURS = 4;

/**
 * @example planPalette('a red ball at sunset', random).shapes[0] // → the red of colour-words.ts
 */
export function planPalette(prompt: string, random: SeededRandom): Palette {
  const named = findColourWords(prompt);
  const mood = findMood(prompt);
  if (mood) return { background: mood.background, shapes: [...named, ...mood.shapes] };
  if (named.length > 0) return paletteFromNamed(named, random);
  return harmonyPalette(random);
}

/** Named colours stay as they are for the shapes; the background is a softened version of them. */
function paletteFromNamed(named: string[], random: SeededRandom): Palette {
  const shapes = [...named];
  // Shades of the named colours, rather than unrelated hues, so "a red ball" stays a red picture.
  for (let i = 0; shapes.length < MIN_SHAPE_COLOURS; i++) {
    const toward = i % 2 === 0 ? '#ffffff' : '#000000';
    shapes.push(mixHex(named[i % named.length], toward, random.between(0.25, 0.45)));
  }
  const top = mixHex(named[0], '#ffffff', random.between(0.55, 0.75));
  const bottom = mixHex(named[named.length - 1], '#000000', random.between(0.3, 0.5));
  return { background: [top, bottom], shapes };
}

/** A light-to-dark background around one hue, with shapes near its complement so they stand out. */
function harmonyPalette(random: SeededRandom): Palette {
  const hue = random.between(0, 360);
  const background: [string, string] = [
    hslToHex(hue, random.between(0.45, 0.7), random.between(0.72, 0.85)),
    hslToHex(hue + random.between(20, 60), random.between(0.4, 0.65), random.between(0.2, 0.35)),
  ];
  const shapes = [180, 150, 210, 90, 270].map((offset) =>
    hslToHex(hue + offset + random.between(-15, 15), random.between(0.55, 0.85), random.between(0.4, 0.65)),
  );
  return { background, shapes };
}
