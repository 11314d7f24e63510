import type { KeyRecord, KeyStore } from '../store/key-store.js';
import { hashKeySecret } from './key-secret.js';

interface CacheEntry {
  record: KeyRecord;
  expiresAt: number;
}

/**
 * Verifies API keys with a short-lived cache in front of the store, so the hot path does not wait on a
 * database round trip for every request. Revocation through this process takes effect at once (`forget`);
 * revocation by another process or the CLI within `ttlMs` (default 1 s). Only valid keys are cached, so a
 * flood of wrong keys cannot push real ones out.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly store: KeyStore,
    private readonly ttlMs = 1_000,
    private readonly maxEntries = 10_000,
  ) {}

  async verify(secret: string): Promise<KeyRecord | undefined> {
    const hash = hashKeySecret(secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.record;
    const record = await this.store.findActiveByHash(hash);
    if (!record) {
      this.cache.delete(hash);
      return undefined;
    }
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(hash, { record, expiresAt: now + this.ttlMs });
    return record;
  }

  /** Drops a key from the cache, e.g. right after it was revoked. */
  forget(keyId: string): void {
    for (const [hash, entry] of this.cache) if (entry.record.id === keyId) this.cache.delete(hash);
  }
}
