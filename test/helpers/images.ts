import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';

/** A solid or two-tone test image in the given format, made with sharp. */
export async function makeImage(format: 'png' | 'jpeg' | 'webp', width = 64, height = 48, colour = '#3080c0'): Promise<Buffer> {
  const left = await sharp({ create: { width: Math.ceil(width / 2), height, channels: 3, background: colour } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#f0c020' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .toFormat(format)
    .toBuffer();
}

/** Mean absolute difference per channel (0–255) between two images scaled to the first one's size. */
export async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const first = await sharp(a).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const second = await sharp(b).removeAlpha().resize(first.info.width, first.info.height, { fit: 'fill' }).raw().toBuffer();
  let total = 0;
  for (let i = 0; i < first.data.length; i++) total += Math.abs(first.data[i]! - second[i]!);
  return total / first.data.length;
}

/** Names in a directory, or none when it does not exist (yet). */
export async function listFiles(directory: string): Promise<string[]> {
  return readdir(directory).catch(() => []);
}

/**
 * The directory's names once it is empty, or after `timeoutMs` whatever is still there: uploads are
 * removed when the response closes, which is just after the client has read it.
 */
export async function settledFiles(directory: string, timeoutMs = 2_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let names = await listFiles(directory);
  while (names.length > 0 && Date.now() < deadline) {
    await sleep(20);
    names = await listFiles(directory);
  }
  return names;
}

/** The image files and upload leftovers of a test gateway's data directory. */
export const imageDirectories = (dataDir: string) => ({ images: join(dataDir, 'images'), uploads: join(dataDir, 'uploads') });

/**
 * GET with the path exactly as written: fetch() would resolve `..` segments before sending, which is not
 * what an attacker's client does.
 */
export function rawGet(origin: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: hostname, port, path, method: 'GET' }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
