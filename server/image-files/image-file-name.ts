import { randomBytes } from 'node:crypto';
import type { ImageFormat } from '../core/image-types.js';

/**
 * Names of stored images: `img_<expiry>_<random>.<extension>`, where the expiry is Unix milliseconds in
 * base 36 and the random part is 128 bits in hex. The name is the capability (the URL needs no key), so
 * the random part must be unguessable; the expiry in it lets every instance and the sweeper decide
 * "expired" without a database or a stat. Changing the expiry changes the name, which then names nothing.
 */
const namePattern = /^img_([0-9a-z]{1,11})_([0-9a-f]{32})\.(png|jpeg|webp)$/;

export function newImageFileName(format: ImageFormat, expiresAt: number): string {
  return `img_${expiresAt.toString(36)}_${randomBytes(16).toString('hex')}.${format}`;
}

/** The expiry and format a name carries, or undefined for anything the gateway never hands out. */
export function parseImageFileName(name: string): { expiresAt: number; format: ImageFormat } | undefined {
  const match = namePattern.exec(name);
  if (!match) return undefined;
  return { expiresAt: parseInt(match[1]!, 36), format: match[3] as ImageFormat };
}
