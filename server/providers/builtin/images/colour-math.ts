/** The few colour conversions the built-in image model needs, on `#rrggbb` strings and 0–255 triples. */

/** Red, green and blue, each 0–255. */
export type Rgb = [number, number, number];

/** `#ff8000` → `[255, 128, 0]`. */
export function hexToRgb(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/** `[255, 128, 0]` → `#ff8000`, rounding and clamping each channel. */
export function rgbToHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => clampByte(channel).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The colour `amount` of the way from `from` to `to` (0 keeps `from`, 1 gives `to`).
 *
 * @example mixHex('#ff0000', '#ffffff', 0.5) // → '#ff8080'
 */
export function mixHex(from: string, to: string, amount: number): string {
  const a = hexToRgb(from);
  const b = hexToRgb(to);
  return rgbToHex([0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * amount) as Rgb);
}

/**
 * Hue in degrees (any value, wrapped), saturation and lightness in 0–1, as `#rrggbb`.
 *
 * @example hslToHex(120, 1, 0.5) // → '#00ff00'
 */
export function hslToHex(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const channel = (offset: number) => {
    const k = (h * 12 + offset) % 12;
    return 255 * (lightness - (chroma / 2) * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return rgbToHex([channel(0), channel(8), channel(4)]);
}

function clampByte(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}
