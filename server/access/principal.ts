import type { AccountRecord } from '../store/account-store.js';
import type { KeyRecord } from '../store/key-store.js';
import type { Limits } from './access-types.js';
import { AccessPolicy } from './access-policy.js';

/** Who is calling: the key, its account, and what the two allow together. */
export interface Principal {
  /** The key as it binds: its `limits` are the tightest of its own and its ancestors' (see toPrincipal). */
  key: KeyRecord;
  account: AccountRecord;
  access: AccessPolicy;
  /** The IDs of the keys above the key, nearest first: revoking any of them ends it. */
  ancestorIds: string[];
}

/**
 * A key, with the keys that minted it (`ancestors`, nearest first), as a caller. A minted key is never
 * wider than a key above it, whatever its own record says (a key minted before this rule, or before a key
 * above it was narrowed): every ancestor's permissions are a layer of its policy, both for the key itself
 * and for every key it mints, and each of its limits is the smallest of its own and its ancestors' (a
 * limit it lacks is inherited), counted where its own are (`shares_limits_with`).
 */
export function toPrincipal(key: KeyRecord, account: AccountRecord, ancestors: KeyRecord[] = []): Principal {
  const lineage = [key, ...ancestors];
  return {
    key: { ...key, limits: tightestLimits(lineage.map((each) => each.limits)) },
    account,
    access: new AccessPolicy(account.permissions, ...lineage.map((each) => each.permissions)),
    ancestorIds: ancestors.map((ancestor) => ancestor.id),
  };
}

/** Field by field, the smallest limit any of `limits` sets; a field none sets stays absent (no limit). */
export function tightestLimits(limits: Limits[]): Limits {
  const tightest: Limits = {};
  for (const each of limits) {
    for (const [field, value] of Object.entries(each) as [keyof Limits, number | undefined][]) {
      if (value !== undefined) tightest[field] = Math.min(value, tightest[field] ?? Infinity);
    }
  }
  return tightest;
}
