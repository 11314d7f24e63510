/**
 * Plans everything a generated image shows from the prompt, the size and the variant index alone: the
 * same three always give the same scene, and each variant its own.
 */
import type { Scene } from './compose-scene-svg.js';
import { planPalette } from './plan-palette.js';
import { planShapes, type Canvas } from './plan-shapes.js';
import { createSeededRandom, hashSeed } from './seeded-random.js';

export interface ScenePlanOptions {
  prompt: string;
  canvas: Canvas;
  /** Which of the `n` images this is, from 0. */
  variant: number;
  transparent: boolean;
}

/** @example composeSceneSvg(planScene({ prompt: 'a red sun', canvas, variant: 0, transparent: false })) */
export function planScene({ prompt, canvas, variant, transparent }: ScenePlanOptions): Scene {
  const random = createSeededRandom(hashSeed(prompt, canvas.width, canvas.height, variant));
  const palette = planPalette(prompt, random);
  // The background is drawn for either case so that the shapes draw the same numbers, transparent or not.
  const background = {
    stops: palette.background,
    tilt: random.between(-0.6, 0.6),
    glow: [random.between(0.15, 0.85), random.between(0.1, 0.4)] as [number, number],
  };
  const shapes = planShapes(prompt, canvas, palette.shapes, random);
  return { ...canvas, background: transparent ? undefined : background, shapes };
}
