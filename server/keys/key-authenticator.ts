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
 * path does not wait on database round trips for every request. Changes made through this process
 * (revoking a key and the keys minted from it, disabling an account, new permissions) take effect at once
 * (`forget…`); changes by another process or the CLI within `ttlMs` (default 1 s): that is the revocation
 * bound on every instance. Only valid keys are cached, so a flood of wrong keys cannot push real ones out.
 *
 * While the store is unreachable (isStoreUnavailable), a key the store confirmed within
 * `outageGraceMs` (default 5 minutes) goes on working from the cache, without waiting for the store once
 * a lookup found it down, and the store is asked again in the background once per `ttlMs`; other keys
 * get the store's error (503). So model requests of active keys ride out a database restart. The price: a
 * key revoked or an account disabled by another process, and not used here since, may work here for the
 * rest of that grace if the store goes down meanwhile.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();
  /** Set by a lookup that could not reach the store, cleared by one that could. */
  private storeDown = false;

  constructor(
    private readonly keys: KeyStore,
    private readonly accounts: AccountStore,
    private readonly ttlMs = 1_000,
    private readonly maxEntries = 10_000,
    private readonly outageGraceMs = 300_000,
  ) {}

  /**
   * The caller behind an active key, or undefined. A disabled account's principal is returned too: the caller decides (403).
   * Not `async`: an async function returning verifyHash's promise would wrap it in a second one and adopt it
   * (two promises and two reactions more per request).
   */
  verify(secret: string): Promise<Principal | undefined> {
    return this.verifyHash(hashKeySecret(secret));
  }

  /** As `verify`, for a key known by its stored hash (a batch runs under the key that made it). */
  async verifyHash(hash: string): Promise<Principal | undefined> {
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.principal;
    const usableInOutage = cached && now - cached.verifiedAt <= this.outageGraceMs ? cached : undefined;
    if (usableInOutage && this.storeDown) {
      // Known to be down: waiting for it (up to the connect timeout) would stall every request of the key.
      usableInOutage.expiresAt = now + this.ttlMs;
      this.refresh(hash).catch(() => {});
      return usableInOutage.principal;
    }
    try {
      return await this.refresh(hash);
    } catch (error) {
      if (!usableInOutage || !isStoreUnavailable(error)) throw error;
      usableInOutage.expiresAt = Date.now() + this.ttlMs;
      return usableInOutage.principal;
    }
  }

  /** Asks the store for the key and its account and caches the answer; notes whether the store could be reached. */
  private async refresh(hash: string): Promise<Principal | undefined> {
    let found;
    try {
      const active = await this.keys.findActiveByHash(hash);
      const account = active && (await this.accounts.get(active.key.account_id));
      found = active && account ? { ...active, account } : undefined;
    } catch (error) {
      if (isStoreUnavailable(error)) this.storeDown = true;
      throw error;
    }
    this.storeDown = false;
    if (!found) {
      this.cache.delete(hash);
      return undefined;
    }
    const principal = toPrincipal(found.key, found.account, found.ancestors);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    const now = Date.now();
    this.cache.set(hash, { principal, expiresAt: now + this.ttlMs, verifiedAt: now });
    return principal;
  }

  /** Drops a key and every key minted from it from the cache, e.g. right after it was revoked. */
  forget(keyId: string): void {
    for (const [hash, { principal }] of this.cache) if (principal.key.id === keyId || principal.ancestorIds.includes(keyId)) this.cache.delete(hash);
  }

  /** Drops every key of an account, e.g. right after it was disabled or its permissions changed. */
  forgetAccount(accountId: string): void {
    for (const [hash, entry] of this.cache) if (entry.principal.account.id === accountId) this.cache.delete(hash);
  }
}
