import { toPrincipal, type Principal } from '../access/principal.js';
import type { AccountStore } from '../store/account-store.js';
import type { KeyStore } from '../store/key-store.js';
import { isStoreUnavailable } from '../store/store-unavailable.js';
import { hashKeySecret } from './key-secret.js';

interface CacheEntry {
  principal: Principal;
  expiresAt: number;
  /** When the store last confirmed this key; bounds how long an outage may serve it unconfirmed. */
  verifiedAt: number;
}

/**
 * Verifies API keys, and finds their account, with a short-lived cache in front of the store, so the hot
 * path does not wait on two database round trips for every request. Changes made through this process
 * (revoking a key, disabling an account, new permissions) take effect at once (`forget…`); changes by
 * another process or the CLI within `ttlMs` (default 1 s). Only valid keys are cached, so a flood of
 * wrong keys cannot push real ones out.
 *
 * While the store is unreachable (isStoreUnavailable), a key the store confirmed within
 * `outageGraceMs` (default 5 minutes) goes on working from the cache, trying the store again once per
 * `ttlMs`; other keys get the store's error (503). So model requests of active keys ride out a database
 * restart. The price: a key revoked or an account disabled by another process, and not used here since,
 * may work here for the rest of that grace if the store goes down meanwhile.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly keys: KeyStore,
    private readonly accounts: AccountStore,
    private readonly ttlMs = 1_000,
    private readonly maxEntries = 10_000,
    private readonly outageGraceMs = 300_000,
  ) {}

  /** The caller behind an active key, or undefined. A disabled account's principal is returned too: the caller decides (403). */
  async verify(secret: string): Promise<Principal | undefined> {
    const hash = hashKeySecret(secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.principal;
    let found: Awaited<ReturnType<KeyAuthenticator['lookUp']>>;
    try {
      found = await this.lookUp(hash);
    } catch (error) {
      if (!cached || !isStoreUnavailable(error) || now - cached.verifiedAt > this.outageGraceMs) throw error;
      cached.expiresAt = Date.now() + this.ttlMs;
      return cached.principal;
    }
    if (!found) {
      this.cache.delete(hash);
      return undefined;
    }
    const principal = toPrincipal(found.key, found.account);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(hash, { principal, expiresAt: now + this.ttlMs, verifiedAt: now });
    return principal;
  }

  private async lookUp(hash: string) {
    const key = await this.keys.findActiveByHash(hash);
    const account = key && (await this.accounts.get(key.account_id));
    return key && account ? { key, account } : undefined;
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
