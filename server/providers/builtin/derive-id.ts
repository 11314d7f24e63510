/**
 * Deterministic IDs for the built-in model: the same request gives the same tool-call ID, so tests and
 * recorded conversations replay identically.
 */
import { createHash } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * `length` alphanumerics (at most 32) derived from a SHA-256 of `seed`.
 *
 * @example deriveId('hello') // → 24 letters and digits, always the same for 'hello'
 */
export function deriveId(seed: string, length = 24): string {
  const digest = createHash('sha256').update(seed).digest();
  return Array.from(digest.subarray(0, length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
}
