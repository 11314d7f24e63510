import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Limits, Permissions } from '../access/access-types.js';
import { displayPrefix, generateKeySecret, hashKeySecret } from '../keys/key-secret.js';
import type { Database, GatewayDb } from './database.js';
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
  /**
   * The key that minted this one (POST /v1/keys); null for a root, made by the admin or the CLI. Keys form
   * a tree per account: revoking a key revokes its subtree, and a key acts only on its subtree.
   */
  parent_key_id: string | null;
}

/** A key as it authenticates: the key and every key above it, nearest first, all active. */
export interface ActiveKey {
  key: KeyRecord;
  ancestors: KeyRecord[];
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

const columns = ['id', 'name', 'prefix', 'created_at', 'revoked_at', 'account_id', 'permissions', 'limits', 'shares_limits_with', 'parent_key_id'] as const;

type KeyRow = { [column in (typeof columns)[number]]: column extends 'permissions' | 'limits' ? string : KeyRecord[column] };

function toRecord(row: KeyRow): KeyRecord {
  return { ...row, permissions: parseJsonColumn<Permissions>(row.permissions), limits: parseJsonColumn<Limits>(row.limits) };
}

/** API keys at rest: only their SHA-256 is stored; the secret exists once, in `create`'s result. */
export class KeyStore {
  constructor(private readonly db: GatewayDb) {}

  /** A root key: made by the admin or the CLI, with no key above it. */
  async create(key: NewKey): Promise<{ record: KeyRecord; secret: string }> {
    return this.insert(this.db, key, null);
  }

  /**
   * A key minted by `parentId` (POST /v1/keys); undefined when the parent is no longer active. The check and
   * the insert are one transaction that first locks the parent's row (an UPDATE: a row lock on PostgreSQL,
   * the write lock on SQLite), so a revocation of the parent running at the same time either finishes
   * first (and this finds the parent revoked) or waits for this and then revokes the new key too.
   */
  async createChild(parentId: string, key: NewKey): Promise<{ record: KeyRecord; secret: string } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const locked = await trx.updateTable('api_keys').set({ revoked_at: null }).where('id', '=', parentId).where('revoked_at', 'is', null).executeTakeFirst();
      if (locked.numUpdatedRows === 0n) return undefined;
      return this.insert(trx, key, parentId);
    });
  }

  private async insert(
    db: Kysely<Database>,
    { name, accountId = defaultAccountId, permissions = {}, limits = {}, sharesLimitsWith }: NewKey,
    parentKeyId: string | null,
  ): Promise<{ record: KeyRecord; secret: string }> {
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
      parent_key_id: parentKeyId,
    };
    await db
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

  /** A key and every key minted from it, transitively, revoked ones included, newest first. */
  async listSubtree(rootId: string): Promise<KeyRecord[]> {
    const rows = await this.db
      .withRecursive('subtree(id)', (db) =>
        db
          .selectFrom('api_keys')
          .select('id')
          .where('id', '=', rootId)
          .unionAll((db) => db.selectFrom('api_keys').innerJoin('subtree', 'subtree.id', 'api_keys.parent_key_id').select('api_keys.id')),
      )
      .selectFrom('api_keys')
      .select(columns)
      .where('id', 'in', (db) => db.selectFrom('subtree').select('subtree.id'))
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  /**
   * Revokes a key and every key minted from it, transitively, in one transaction (keeping each key's first
   * revocation time, and revoking again whatever a key revoked earlier left active). Undefined when no such
   * key exists or, with `subtreeOf`, it is not in that key's subtree.
   *
   * Level by level, each UPDATE locking the rows it revokes before the next statement looks for their
   * children: a key minted meanwhile (createChild) either committed while holding its parent's lock, and
   * the next statement, seeing what committed before it (PostgreSQL's read committed), finds it, or waits
   * for this transaction and then finds its parent revoked. One recursive statement would read the tree
   * once, before its locks, and miss it.
   */
  async revoke(id: string, subtreeOf?: string): Promise<KeyRecord | undefined> {
    if (subtreeOf !== undefined && !(await this.isInSubtree(id, subtreeOf))) return undefined;
    const now = Math.floor(Date.now() / 1000);
    const revokedAt = sql<number>`coalesce(revoked_at, ${now})`;
    const found = await this.db.transaction().execute(async (trx) => {
      const target = await trx.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', id).executeTakeFirst();
      if (target.numUpdatedRows === 0n) return false;
      for (let level = [id]; level.length > 0; ) {
        const children = await trx.updateTable('api_keys').set({ revoked_at: revokedAt }).where('parent_key_id', 'in', level).returning('id').execute();
        level = children.map((child) => child.id);
      }
      return true;
    });
    return found ? this.get(id) : undefined;
  }

  /** Gives a key a new name; undefined as for {@link revoke}. */
  async rename(id: string, name: string, subtreeOf?: string): Promise<KeyRecord | undefined> {
    if (subtreeOf !== undefined && !(await this.isInSubtree(id, subtreeOf))) return undefined;
    await this.db.updateTable('api_keys').set({ name }).where('id', '=', id).execute();
    return this.get(id);
  }

  /** The stored hash of a key's secret, revoked or not (a batch runs as the key that made it); undefined when missing. */
  async secretHashOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('api_keys').select('secret_hash').where('id', '=', id).executeTakeFirst();
    return row?.secret_hash;
  }

  /** A key by ID, revoked or not; undefined when missing. */
  async get(id: string): Promise<KeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').select(columns).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** Whether `id` is `rootId` or was minted from it, transitively. A key's parent never changes. */
  private async isInSubtree(id: string, rootId: string): Promise<boolean> {
    return (await this.lineage(id)).some((key) => key.id === rootId);
  }

  /** A key and every key above it, nearest first, up to its root; empty when there is no such key. */
  private async lineage(id: string): Promise<KeyRecord[]> {
    const rows = await this.db
      .withRecursive('lineage(id, parent_key_id)', (db) =>
        db
          .selectFrom('api_keys')
          .select(['id', 'parent_key_id'])
          .where('id', '=', id)
          .unionAll((db) => db.selectFrom('api_keys').innerJoin('lineage', 'lineage.parent_key_id', 'api_keys.id').select(['api_keys.id', 'api_keys.parent_key_id'])),
      )
      .selectFrom('api_keys')
      .select(columns)
      .where('id', 'in', (db) => db.selectFrom('lineage').select('lineage.id'))
      .execute();
    const byId = new Map(rows.map((row) => [row.id, toRecord(row)]));
    const lineage: KeyRecord[] = [];
    for (let next = byId.get(id); next; next = next.parent_key_id === null ? undefined : byId.get(next.parent_key_id)) lineage.push(next);
    return lineage;
  }

  /**
   * The active key whose secret hashes to `hash` (see hashKeySecret), with its ancestors; undefined also when
   * any ancestor is revoked, so a key can never outlive a key above it, even one revoked by a transaction
   * that was not this store's (or before revocation reached descendants).
   */
  async findActiveByHash(hash: string): Promise<ActiveKey | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select([...columns, 'secret_hash'])
      .where('secret_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    // The index lookup already matched; the constant-time check guards against a store that compares loosely.
    if (!row || !timingSafeEqual(Buffer.from(row.secret_hash), Buffer.from(hash))) return undefined;
    const { secret_hash: _hash, ...record } = row;
    const key = toRecord(record);
    const ancestors = key.parent_key_id === null ? [] : await this.lineage(key.parent_key_id);
    if (ancestors.some((ancestor) => ancestor.revoked_at !== null)) return undefined;
    return { key, ancestors };
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
