import { randomFillSync } from 'node:crypto';

const pool = Buffer.allocUnsafe(4096);
let used = pool.length;

/**
 * `bytes` fresh random bytes from the system CSPRNG, as hex or base64url: the IDs every request mints
 * (request, usage row, completion, message, response). Drawn from a 4 KiB pool that is refilled when spent,
 * as Node does for randomUUID, because one `randomBytes` call per ID is a system call per ID on the hot
 * path (bench/README.md). Every byte is used once.
 */
export function randomString(bytes: number, encoding: 'hex' | 'base64url' = 'hex'): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const text = pool.toString(encoding, used, used + bytes);
  used += bytes;
  return text;
}
