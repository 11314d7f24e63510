/**
 * Chooses a generated image's shapes from the prompt's words: suns and balls become circles, mountains
 * triangles, houses rectangles, stars stars and seas waves. A prompt with none of these gets shapes drawn
 * from the seed, so every prompt still makes a picture.
 */
import { promptWords } from './prompt-words.js';
import type { SeededRandom } from './seeded-random.js';

export type ShapeKind = 'circle' | 'triangle' | 'rectangle' | 'star' | 'wave';

/** A shape in pixels, ready to draw. */
export type Shape =
  | { type: 'circle'; cx: number; cy: number; r: number; fill: string }
  | { type: 'polygon'; points: Array<[number, number]>; fill: string }
  | { type: 'rect'; x: number; y: number; width: number; height: number; rx: number; fill: string }
  /** A wavy band from `baseline` down to the bottom edge. */
  | { type: 'wave'; baseline: number; amplitude: number; wavelength: number; phase: number; fill: string };

export interface Canvas {
  width: number;
  height: number;
}

const keywordKinds: Readonly<Record<string, ShapeKind>> = Object.fromEntries([
  ...['sun', 'moon', 'circle', 'circles', 'ball', 'balls', 'planet', 'orb', 'bubble', 'bubbles'].map((w) => [w, 'circle']),
  ...['mountain', 'mountains', 'hill', 'hills', 'pyramid', 'triangle', 'triangles', 'peak', 'peaks'].map((w) => [w, 'triangle']),
  ...['house', 'houses', 'building', 'buildings', 'box', 'boxes', 'city', 'tower', 'square', 'rectangle'].map((w) => [w, 'rectangle']),
  ...['star', 'stars', 'starry', 'sparkle'].map((w) => [w, 'star']),
  ...['sea', 'wave', 'waves', 'ocean', 'water', 'lake', 'river'].map((w) => [w, 'wave']),
]);

/** How many of each kind a keyword brings: one sun, a range of mountains, a sky of stars. */
const countRange: Record<ShapeKind, [number, number]> = {
  circle: [1, 2],
  triangle: [2, 3],
  rectangle: [2, 4],
  star: [3, 6],
  wave: [2, 3],
};

/** Painting order, back to front: a sun sets behind mountains, waves break in front of everything. */
const layer: Record<ShapeKind, number> = { circle: 0, star: 1, triangle: 2, rectangle: 3, wave: 4 };

/** The shape kinds the prompt names, in order of first mention. */
export function findShapeKinds(prompt: string): ShapeKind[] {
  const kinds = promptWords(prompt)
    .filter((word) => Object.hasOwn(keywordKinds, word))
    .map((word) => keywordKinds[word]);
  return [...new Set(kinds)];
}

/**
 * The shapes to draw, back to front. The first kind the prompt names takes the first palette colour, so
 * "a red ball" gets a red circle.
 */
export function planShapes(prompt: string, canvas: Canvas, colours: string[], random: SeededRandom): Shape[] {
  const named = findShapeKinds(prompt);
  const groups: Array<{ kind: ShapeKind; count: number }> =
    named.length > 0
      ? named.map((kind) => ({ kind, count: random.int(...countRange[kind]) }))
      : Array.from({ length: random.int(4, 7) }, () => ({ kind: random.pick(Object.keys(layer) as ShapeKind[]), count: 1 }));

  const planned = groups.flatMap(({ kind, count }, groupIndex) =>
    Array.from({ length: count }, (_, index) => {
      const fill = colours[(groupIndex + index * groups.length) % colours.length];
      return { kind, shape: drawShape(kind, { canvas, index, count, fill, random }) };
    }),
  );
  // A stable sort keeps the prompt's order within a layer.
  return planned.sort((a, b) => layer[a.kind] - layer[b.kind]).map(({ shape }) => shape);
}

interface Placement {
  canvas: Canvas;
  /** This shape's position among `count` of its kind, to spread a group across the picture. */
  index: number;
  count: number;
  fill: string;
  random: SeededRandom;
}

function drawShape(kind: ShapeKind, { canvas, index, count, fill, random }: Placement): Shape {
  const { width, height } = canvas;
  const short = Math.min(width, height);
  const spreadX = (index + 0.5) / count + random.between(-0.08, 0.08);
  switch (kind) {
    case 'circle':
      return {
        type: 'circle',
        cx: width * random.between(0.15, 0.85),
        cy: height * random.between(0.15, 0.55),
        r: short * random.between(0.08, 0.18),
        fill,
      };
    case 'triangle': {
      const peakX = width * spreadX;
      const halfBase = width * random.between(0.22, 0.4);
      const baseY = height * 1.02;
      const peak: [number, number] = [peakX, height * random.between(0.3, 0.6)];
      return { type: 'polygon', points: [[peakX - halfBase, baseY], peak, [peakX + halfBase, baseY]], fill };
    }
    case 'rectangle': {
      const rectWidth = width * random.between(0.1, 0.22);
      const rectHeight = height * random.between(0.2, 0.5);
      const bottom = height * random.between(0.72, 0.95);
      return {
        type: 'rect',
        x: width * spreadX - rectWidth / 2,
        y: bottom - rectHeight,
        width: rectWidth,
        height: rectHeight,
        rx: rectWidth * 0.05,
        fill,
      };
    }
    case 'star':
      return {
        type: 'polygon',
        points: starPoints(
          [width * random.between(0.08, 0.92), height * random.between(0.08, 0.5)],
          short * random.between(0.03, 0.08),
          random.between(0, Math.PI * 2),
        ),
        fill,
      };
    case 'wave':
      return {
        type: 'wave',
        baseline: height * (0.55 + 0.12 * index + random.between(0, 0.08)),
        amplitude: height * random.between(0.02, 0.05),
        wavelength: width * random.between(0.2, 0.4),
        phase: random.between(0, 1),
        fill,
      };
  }
}

/** A five-pointed star's ten corners, alternating outer and inner radius. */
function starPoints(centre: [number, number], outer: number, rotation: number): Array<[number, number]> {
  const inner = outer * 0.45;
  return Array.from({ length: 10 }, (_, i) => {
    const radius = i % 2 === 0 ? outer : inner;
    const angle = rotation + (i * Math.PI) / 5;
    return [centre[0] + radius * Math.cos(angle), centre[1] + radius * Math.sin(angle)];
  });
}
