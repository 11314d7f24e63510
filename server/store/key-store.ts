import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { GatewayDb } from './database.js';
import { displayPrefix, generateKeySecret, hashKeySecret } from '../keys/key-secret.js';

export interface KeyRecord {
  id: string;
  name: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
}

/** API keys at rest: only their SHA-256 is stored; the secret exists once, in `create`'s result. */
export class KeyStore {
  constructor(private readonly db: GatewayDb) {}

  async create(name: string): Promise<{ record: KeyRecord; secret: string }> {
    const secret = generateKeySecret();
    const record: KeyRecord = {
      id: `key_${randomBytes(8).toString('hex')}`,
      name,
      prefix: displayPrefix(secret),
      created_at: Math.floor(Date.now() / 1000),
      revoked_at: null,
    };
    await this.db.insertInto('api_keys').values({ ...record, secret_hash: hashKeySecret(secret) }).execute();
    return { record, secret };
  }

  /** Every key, newest first. */
  async list(): Promise<KeyRecord[]> {
    return this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'created_at', 'revoked_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** Marks a key revoked (keeping the first revocation time); undefined when no such key exists. */
  async revoke(id: string): Promise<KeyRecord | undefined> {
    await this.db
      .updateTable('api_keys')
      .set({ revoked_at: Math.floor(Date.now() / 1000) })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'created_at', 'revoked_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The active key whose secret hashes to `hash` (see hashKeySecret), if any. */
  async findActiveByHash(hash: string): Promise<KeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'created_at', 'revoked_at', 'secret_hash'])
      .where('secret_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    // The index lookup already matched; the constant-time check guards against a store that compares loosely.
    if (!row || !timingSafeEqual(Buffer.from(row.secret_hash), Buffer.from(hash))) return undefined;
    const { secret_hash: _hash, ...record } = row;
    return record;
  }
}
