/**
 * The colours and moods a prompt can name. Words map to fixed colours so that "a red ball" is red on every
 * server; moods bring a whole palette, background included.
 */
import { promptWords } from './prompt-words.js';

/** Colour words and their `#rrggbb`; spelling variants point at the same colour. */
export const colourWords: Readonly<Record<string, string>> = {
  red: '#d62828',
  orange: '#f77f00',
  yellow: '#fcbf49',
  green: '#2a9d3f',
  blue: '#1d4ed8',
  purple: '#7b2cbf',
  violet: '#7b2cbf',
  pink: '#ff70a6',
  brown: '#7f4f24',
  black: '#111111',
  white: '#f8f8f8',
  gray: '#8d8d8d',
  grey: '#8d8d8d',
  gold: '#d4a017',
  golden: '#d4a017',
  teal: '#118a7e',
  cyan: '#22d3ee',
  magenta: '#d6249f',
};

/** A mood's two background stops (top, bottom) and the colours its shapes take. */
export interface MoodPalette {
  background: [string, string];
  shapes: string[];
}

export const moodPalettes: Readonly<Record<string, MoodPalette>> = {
  sunset: { background: ['#ffb347', '#6a2c70'], shapes: ['#ff5e3a', '#ffd56b', '#c0392b', '#3d1e4a'] },
  ocean: { background: ['#9be7ff', '#03396c'], shapes: ['#0077b6', '#00b4d8', '#48cae4', '#023e8a'] },
  forest: { background: ['#d8f3dc', '#1b4332'], shapes: ['#2d6a4f', '#40916c', '#74c69d', '#6f4e37'] },
  night: { background: ['#1a1a40', '#03031a'], shapes: ['#f5f3ce', '#4b4e9c', '#c0c0d8', '#27285c'] },
};

/** The colours named in the prompt, in order of first mention, each once. */
export function findColourWords(prompt: string): string[] {
  const found = promptWords(prompt)
    .filter((word) => Object.hasOwn(colourWords, word))
    .map((word) => colourWords[word]);
  return [...new Set(found)];
}

/** The first mood the prompt names, if any. */
export function findMood(prompt: string): MoodPalette | undefined {
  const mood = promptWords(prompt).find((word) => Object.hasOwn(moodPalettes, word));
  return mood === undefined ? undefined : moodPalettes[mood];
}
