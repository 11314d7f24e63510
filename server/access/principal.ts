import type { AccountRecord } from '../store/account-store.js';
import type { KeyRecord } from '../store/key-store.js';
import { AccessPolicy } from './access-policy.js';

/** Who is calling: the key, its account, and what the two allow together. */
export interface Principal {
  key: KeyRecord;
  account: AccountRecord;
  access: AccessPolicy;
}

export function toPrincipal(key: KeyRecord, account: AccountRecord): Principal {
  return { key, account, access: new AccessPolicy(account.permissions, key.permissions) };
}
