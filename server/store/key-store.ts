import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Limits, Permissions } from '../access/access-types.js';
import { displayPrefix, generateKeySecret, hashKeySecret } from '../keys/key-secret.js';
import type { GatewayDb } from './database.js';
import { parseJsonColumn } from './json-column.js';
import { defaultAccountId } from './migrations.js';

export interface KeyRecord {
  id: string;
  name: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
  account_id: string;
  /** Narrows the account's permissions. */
  permissions: Permissions;
  /** The key's own limits, on top of the account's. */
  limits: Limits;
  /**
   * The key whose key-level counters this key's requests count against, when it was made by another key
   * (POST /v1/keys); null when it has counters of its own. See {@link limitScopeKeyId}.
   */
  shares_limits_with: string | null;
}

export interface NewKey {
  name: string;
  /** Default: the default account. */
  accountId?: string;
  permissions?: Permissions;
  limits?: Limits;
  /** The key whose counters the new key shares (see KeyRecord). */
  sharesLimitsWith?: string;
}

const columns = ['id', 'name', 'prefix', 'created_at', 'revoked_at', 'account_id', 'permissions', 'limits', 'shares_limits_with'] as const;

type KeyRow = { [column in (typeof columns)[number]]: column extends 'permissions' | 'limits' ? string : KeyRecord[column] };

function toRecord(row: KeyRow): KeyRecord {
  return { ...row, permissions: parseJsonColumn<Permissions>(row.permissions), limits: parseJsonColumn<Limits>(row.limits) };
}

/** API keys at rest: only their SHA-256 is stored; the secret exists once, in `create`'s result. */
export class KeyStore {
  constructor(private readonly db: GatewayDb) {}

  async create({ name, accountId = defaultAccountId, permissions = {}, limits = {}, sharesLimitsWith }: NewKey): Promise<{ record: KeyRecord; secret: string }> {
    const secret = generateKeySecret();
    const record: KeyRecord = {
      id: `key_${randomBytes(8).toString('hex')}`,
      name,
      prefix: displayPrefix(secret),
      created_at: Math.floor(Date.now() / 1000),
      revoked_at: null,
      account_id: accountId,
      permissions,
      limits,
      shares_limits_with: sharesLimitsWith ?? null,
    };
    await this.db
      .insertInto('api_keys')
      .values({ ...record, permissions: JSON.stringify(permissions), limits: JSON.stringify(limits), secret_hash: hashKeySecret(secret) })
      .execute();
    return { record, secret };
  }

  /** Every key (or an account's), newest first. */
  async list(accountId?: string): Promise<KeyRecord[]> {
    let query = this.db.selectFrom('api_keys').select(columns);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(toRecord);
  }

  /**
   * Marks a key revoked (keeping the first revocation time); undefined when no such key exists, or when
   * `accountId` is given and the key belongs to another account.
   */
  async revoke(id: string, accountId?: string): Promise<KeyRecord | undefined> {
    await this.db
      .updateTable('api_keys')
      .set({ revoked_at: Math.floor(Date.now() / 1000) })
      .where('id', '=', id)
      .$if(accountId !== undefined, (query) => query.where('account_id', '=', accountId!))
      .where('revoked_at', 'is', null)
      .execute();
    return this.get(id, accountId);
  }

  /** Gives a key a new name; undefined as for {@link revoke}. */
  async rename(id: string, name: string, accountId?: string): Promise<KeyRecord | undefined> {
    await this.db
      .updateTable('api_keys')
      .set({ name })
      .where('id', '=', id)
      .$if(accountId !== undefined, (query) => query.where('account_id', '=', accountId!))
      .execute();
    return this.get(id, accountId);
  }

  /** A key by ID, revoked or not; undefined when missing or, with `accountId`, another account's. */
  async get(id: string, accountId?: string): Promise<KeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(columns)
      .where('id', '=', id)
      .$if(accountId !== undefined, (query) => query.where('account_id', '=', accountId!))
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** The active key whose secret hashes to `hash` (see hashKeySecret), if any. */
  async findActiveByHash(hash: string): Promise<KeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select([...columns, 'secret_hash'])
      .where('secret_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    // The index lookup already matched; the constant-time check guards against a store that compares loosely.
    if (!row || !timingSafeEqual(Buffer.from(row.secret_hash), Buffer.from(hash))) return undefined;
    const { secret_hash: _hash, ...record } = row;
    return toRecord(record);
  }
}

/**
 * The key whose key-level counters a key's requests count against: its own, or, for a key made by another
 * key, the first key of that family. A key's children copy its limits, so the family as a whole stays
 * within them instead of each child getting fresh counters.
 */
export function limitScopeKeyId(key: KeyRecord): string {
  return key.shares_limits_with ?? key.id;
}
