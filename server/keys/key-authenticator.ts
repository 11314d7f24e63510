import { toPrincipal, type Principal } from '../access/principal.js';
import type { AccountStore } from '../store/account-store.js';
import type { KeyStore } from '../store/key-store.js';
import { hashKeySecret } from './key-secret.js';

interface CacheEntry {
  principal: Principal;
  expiresAt: number;
}

/**
 * Verifies API keys, and finds their account, with a short-lived cache in front of the store, so the hot
 * path does not wait on two database round trips for every request. Changes made through this process
 * (revoking a key, disabling an account, new permissions) take effect at once (`forget…`); changes by
 * another process or the CLI within `ttlMs` (default 1 s). Only valid keys are cached, so a flood of
 * wrong keys cannot push real ones out.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly keys: KeyStore,
    private readonly accounts: AccountStore,
    private readonly ttlMs = 1_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** The caller behind an active key, or undefined. A disabled account's principal is returned too: the caller decides (403). */
  async verify(secret: string): Promise<Principal | undefined> {
    const hash = hashKeySecret(secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.principal;
    const key = await this.keys.findActiveByHash(hash);
    const account = key && (await this.accounts.get(key.account_id));
    if (!key || !account) {
      this.cache.delete(hash);
      return undefined;
    }
    const principal = toPrincipal(key, account);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(hash, { principal, expiresAt: now + this.ttlMs });
    return principal;
  }

  /** Drops a key from the cache, e.g. right after it was revoked. */
  forget(keyId: string): void {
    for (const [hash, entry] of this.cache) if (entry.principal.key.id === keyId) this.cache.delete(hash);
  }

  /** Drops every key of an account, e.g. right after it was disabled or its permissions changed. */
  forgetAccount(accountId: string): void {
    for (const [hash, entry] of this.cache) if (entry.principal.account.id === accountId) this.cache.delete(hash);
  }
}
