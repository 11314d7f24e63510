/** Reads and checks the `size` a client asked for. */
import { parseImageSize } from '../../../core/image-types.js';
import { GatewayError } from '../../../core/gateway-error.js';
import type { Canvas } from './plan-shapes.js';

/** The smallest and largest side the built-in model draws. */
export const MIN_SIDE = 16;
export const MAX_SIDE = 4096;

/**
 * `undefined` or `auto` give `fallback` (undefined when the caller has none); anything else must be
 * `WIDTHxHEIGHT` with both sides within 16..4096.
 *
 * @example resolveImageSize('640x480', { width: 1024, height: 1024 }) // → { width: 640, height: 480 }
 * @throws GatewayError `invalid_request` with `param: 'size'`
 */
export function resolveImageSize(size: string | undefined, fallback: Canvas): Canvas;
export function resolveImageSize(size: string | undefined, fallback?: Canvas): Canvas | undefined;
export function resolveImageSize(size: string | undefined, fallback?: Canvas): Canvas | undefined {
  if (size === undefined || size === 'auto') return fallback;
  const parsed = parseImageSize(size);
  if (!parsed) {
    throw new GatewayError('invalid_request', `Invalid size '${size}': use WIDTHxHEIGHT, e.g. 1024x1024, or auto.`, {
      param: 'size',
    });
  }
  const inRange = (side: number) => side >= MIN_SIDE && side <= MAX_SIDE;
  if (!inRange(parsed.width) || !inRange(parsed.height)) {
    throw new GatewayError(
      'invalid_request',
      `Invalid size '${size}': each side must be between ${MIN_SIDE} and ${MAX_SIDE} pixels.`,
      { param: 'size' },
    );
  }
  return parsed;
}
