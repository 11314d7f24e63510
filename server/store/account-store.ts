import { randomBytes } from 'node:crypto';
import type { Limits, Permissions } from '../access/access-types.js';
import type { GatewayDb } from './database.js';
import { parseJsonColumn } from './json-column.js';

export interface AccountRecord {
  id: string;
  name: string;
  created_at: number;
  disabled_at: number | null;
  permissions: Permissions;
  limits: Limits;
}

export interface AccountChanges {
  name?: string;
  permissions?: Permissions;
  limits?: Limits;
  /** true disables (keeping the first time), false enables. */
  disabled?: boolean;
}

type AccountRow = Omit<AccountRecord, 'permissions' | 'limits'> & { permissions: string; limits: string };

export function toAccountRecord(row: AccountRow): AccountRecord {
  return { ...row, permissions: parseJsonColumn<Permissions>(row.permissions), limits: parseJsonColumn<Limits>(row.limits) };
}

/** Accounts: they own keys, and their permissions and limits bound every key of theirs. */
export class AccountStore {
  constructor(private readonly db: GatewayDb) {}

  async create(account: { name: string; permissions?: Permissions; limits?: Limits }): Promise<AccountRecord> {
    const record: AccountRecord = {
      id: `acct_${randomBytes(8).toString('hex')}`,
      name: account.name,
      created_at: Math.floor(Date.now() / 1000),
      disabled_at: null,
      permissions: account.permissions ?? {},
      limits: account.limits ?? {},
    };
    await this.db
      .insertInto('accounts')
      .values({ ...record, permissions: JSON.stringify(record.permissions), limits: JSON.stringify(record.limits) })
      .execute();
    return record;
  }

  /** Oldest first, so the default account leads. */
  async list(): Promise<AccountRecord[]> {
    const rows = await this.db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toAccountRecord);
  }

  async get(id: string): Promise<AccountRecord | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAccountRecord(row);
  }

  /** Applies the changes given; undefined when no such account exists. */
  async update(id: string, changes: AccountChanges): Promise<AccountRecord | undefined> {
    const set: Partial<AccountRow> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.permissions !== undefined) set.permissions = JSON.stringify(changes.permissions);
    if (changes.limits !== undefined) set.limits = JSON.stringify(changes.limits);
    if (changes.disabled === false) set.disabled_at = null;
    if (Object.keys(set).length > 0) await this.db.updateTable('accounts').set(set).where('id', '=', id).execute();
    if (changes.disabled === true) {
      await this.db.updateTable('accounts').set({ disabled_at: Math.floor(Date.now() / 1000) }).where('id', '=', id).where('disabled_at', 'is', null).execute();
    }
    return this.get(id);
  }
}
