import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Recognisable prefix, so a leaked key is easy to spot in code or logs scanners. */
export const keyPrefix = 'sk-gw-';

/** A new secret: the prefix and 256 random bits in base64url. */
export function generateKeySecret(): string {
  return keyPrefix + randomBytes(32).toString('base64url');
}

/**
 * SHA-256 hex of a secret: what the store keeps instead of the secret. Runs on every model call (the key
 * cache is keyed by it), so it uses the one-shot `hash`, a third of `createHash`'s cost (no Hash object).
 */
export function hashKeySecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Enough of the secret to recognise a key in a list without being able to use it. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, keyPrefix.length + 4);
}

/**
 * Compares two secrets in time that does not depend on where they differ: both are hashed first so the
 * comparison runs over equal-length digests whatever the inputs' lengths.
 */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
