import type { GatewayDb } from './database.js';

/** A stored file's metadata. */
export interface FileRecord {
  id: string;
  /** The account that owns it: every key of that account sees it, no other account does. */
  ownerId: string;
  /** The key that uploaded it; undefined for a file the gateway wrote (a batch's output). */
  createdByKeyId?: string;
  filename: string;
  purpose: string;
  bytes: number;
  /** Unix milliseconds. */
  createdAtMs: number;
  /** Unix seconds. */
  expiresAt?: number;
}

/** Where a page of files starts and how it runs, as `GET /v1/files` asks. */
export interface FileListQuery {
  purpose?: string;
  limit: number;
  order: 'asc' | 'desc';
  /** A file ID of the owner's: the page starts after it. */
  after?: string;
}

/** A page of files, or `unknown-cursor` when `after` names no file of the owner's. */
export type FilePage = { files: FileRecord[]; hasMore: boolean } | 'unknown-cursor';

type Row = { id: string; owner_id: string; created_by_key_id: string | null; filename: string; purpose: string; bytes: number; created_at_ms: number; expires_at: number | null };

/**
 * The metadata of OpenAI Files. Every read is scoped to the owner and to files not yet expired at `now`,
 * so another account's file, and an expired one, look like none at all.
 */
export class FileStore {
  constructor(private readonly db: GatewayDb) {}

  async insert(record: FileRecord): Promise<void> {
    await this.db
      .insertInto('files')
      .values({
        id: record.id,
        owner_id: record.ownerId,
        created_by_key_id: record.createdByKeyId ?? null,
        filename: record.filename,
        purpose: record.purpose,
        bytes: record.bytes,
        created_at_ms: record.createdAtMs,
        expires_at: record.expiresAt ?? null,
      })
      .execute();
  }

  async get(id: string, ownerId: string, now = nowSeconds()): Promise<FileRecord | undefined> {
    const row = await this.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /**
   * One page in creation order (ties broken by ID, so the order is total and a cursor never skips a file
   * created in the same millisecond).
   */
  async page(ownerId: string, query: FileListQuery, now = nowSeconds()): Promise<FilePage> {
    let select = this.db
      .selectFrom('files')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
    if (query.purpose !== undefined) select = select.where('purpose', '=', query.purpose);
    if (query.after !== undefined) {
      const cursor = await this.get(query.after, ownerId, now);
      if (!cursor) return 'unknown-cursor';
      const comparison = query.order === 'asc' ? '>' : '<';
      select = select.where((eb) =>
        eb.or([eb('created_at_ms', comparison, cursor.createdAtMs), eb.and([eb('created_at_ms', '=', cursor.createdAtMs), eb('id', comparison, cursor.id)])]),
      );
    }
    // One more than asked, to tell whether there are more.
    const rows = await select.orderBy('created_at_ms', query.order).orderBy('id', query.order).limit(query.limit + 1).execute();
    return { files: rows.slice(0, query.limit).map(toRecord), hasMore: rows.length > query.limit };
  }

  /** Deletes the owner's file; true when it had it (expired or not). */
  async delete(id: string, ownerId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('files').where('id', '=', id).where('owner_id', '=', ownerId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Up to `limit` expired files' IDs, for the sweep that deletes their content and then their rows. */
  async expired(limit: number, now = nowSeconds()): Promise<string[]> {
    const rows = await this.db.selectFrom('files').select('id').where('expires_at', '<=', now).orderBy('expires_at', 'asc').limit(limit).execute();
    return rows.map((row) => row.id);
  }

  /** Deletes rows by ID whoever owns them (the sweep's, after their content is gone). */
  async deleteRows(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.db.deleteFrom('files').where('id', 'in', ids).execute();
  }
}

function toRecord(row: Row): FileRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    ...(row.created_by_key_id !== null && { createdByKeyId: row.created_by_key_id }),
    filename: row.filename,
    purpose: row.purpose,
    bytes: Number(row.bytes),
    createdAtMs: Number(row.created_at_ms),
    ...(row.expires_at !== null && { expiresAt: Number(row.expires_at) }),
  };
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
