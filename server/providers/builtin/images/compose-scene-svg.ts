/**
 * Writes a planned scene as SVG for sharp (librsvg) to rasterise. Only numbers and `#rrggbb` colours go in,
 * never prompt text: no text is drawn (server fonts differ, so output would not be reproducible) and
 * nothing the client sent can inject markup or external references.
 */
import { mixHex } from './colour-math.js';
import type { Shape } from './plan-shapes.js';

/** Everything one generated image shows. */
export interface Scene {
  width: number;
  height: number;
  /** Absent for a transparent background. */
  background?: SceneBackground;
  shapes: Shape[];
}

export interface SceneBackground {
  /** Gradient stops, top then bottom. */
  stops: [string, string];
  /** How far the gradient leans sideways, -1..1 of the width. */
  tilt: number;
  /** Where a soft highlight sits, as fractions of width and height. */
  glow: [number, number];
}

const SHAPE_OPACITY = 0.92;

/** @example sharp(Buffer.from(composeSceneSvg(scene))).png() */
export function composeSceneSvg(scene: Scene): string {
  const { width, height, background, shapes } = scene;
  const strokeWidth = num(Math.max(1, Math.min(width, height) / 256));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
  ];
  if (background) parts.push(...backgroundParts(background, width, height));
  for (const shape of shapes) {
    // A darker outline of the shape's own colour keeps it visible on a background of the same hue.
    const paint = `fill="${shape.fill}" fill-opacity="${SHAPE_OPACITY}" stroke="${mixHex(shape.fill, '#000000', 0.35)}" stroke-width="${strokeWidth}"`;
    parts.push(shapeElement(shape, width, height, paint));
  }
  parts.push('</svg>');
  return parts.join('\n');
}

function backgroundParts(background: SceneBackground, width: number, height: number): string[] {
  const [top, bottom] = background.stops;
  const lean = background.tilt / 2;
  const [glowX, glowY] = background.glow;
  return [
    '<defs>',
    `<linearGradient id="sky" x1="${num(0.5 - lean)}" y1="0" x2="${num(0.5 + lean)}" y2="1">`,
    `<stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/>`,
    '</linearGradient>',
    `<radialGradient id="glow" cx="${num(glowX)}" cy="${num(glowY)}" r="0.6">`,
    '<stop offset="0" stop-color="#ffffff" stop-opacity="0.35"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/>',
    '</radialGradient>',
    '</defs>',
    `<rect x="0" y="0" width="${width}" height="${height}" fill="url(#sky)"/>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="url(#glow)"/>`,
  ];
}

function shapeElement(shape: Shape, width: number, height: number, paint: string): string {
  switch (shape.type) {
    case 'circle':
      return `<circle cx="${num(shape.cx)}" cy="${num(shape.cy)}" r="${num(shape.r)}" ${paint}/>`;
    case 'polygon':
      return `<polygon points="${shape.points.map(([x, y]) => `${num(x)},${num(y)}`).join(' ')}" ${paint}/>`;
    case 'rect':
      return `<rect x="${num(shape.x)}" y="${num(shape.y)}" width="${num(shape.width)}" height="${num(shape.height)}" rx="${num(shape.rx)}" ${paint}/>`;
    case 'wave':
      return `<path d="${wavePath(shape, width, height)}" ${paint}/>`;
  }
}

/** Half-waves of quadratic curves across the whole width, closed below the bottom edge. */
function wavePath(wave: Extract<Shape, { type: 'wave' }>, width: number, height: number): string {
  const half = Math.max(wave.wavelength / 2, 1);
  let x = -wave.phase * wave.wavelength;
  const start = x;
  const commands = [`M${num(x)} ${num(wave.baseline)}`];
  for (let up = true; x < width; up = !up, x += half) {
    const crest = wave.baseline + (up ? -2 : 2) * wave.amplitude;
    commands.push(`Q${num(x + half / 2)} ${num(crest)} ${num(x + half)} ${num(wave.baseline)}`);
  }
  const below = height + 10;
  commands.push(`L${num(x)} ${num(below)}`, `L${num(start)} ${num(below)}`, 'Z');
  return commands.join(' ');
}

/** One decimal is finer than a pixel needs and keeps the SVG, and so the image, stable. */
function num(value: number): string {
  return value.toFixed(1);
}
