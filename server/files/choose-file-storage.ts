import type { ByteStorageSetting } from '../config/config-schema.js';
import { postgresPoolOf, type GatewayDb } from '../store/database.js';
import { DatabaseFileStorage } from './database-file-storage.js';
import type { FileStorage } from './file-storage.js';
import { LocalDiskFileStorage } from './local-disk-file-storage.js';

/** Where the store is and how it is read, for {@link chooseStoreStorage}. */
export interface StoreForBytes {
  db: GatewayDb;
  /**
   * Where the database storage reads chunks: the store's reader thread on SQLite, so no blob is read on the
   * event loop; the store itself on PostgreSQL
   */
  reads: GatewayDb;
}

/**
 * The chunked storage in the store when a storage setting (`files.storage`, `images.storage`) puts bytes
 * there, else undefined (they go to disk). `auto` keeps bytes in the store on PostgreSQL, which the
 * instances share (what one instance wrote any other reads), and on local disk on SQLite, where there is
 * one process and large files would only swell the store's file. Files and images decide here, so the
 * setting means the same for both.
 */
export function chooseStoreStorage(setting: ByteStorageSetting, store: StoreForBytes): DatabaseFileStorage | undefined {
  const shared = postgresPoolOf(store.db) !== undefined;
  const inDatabase = setting === 'database' || (setting === 'auto' && shared);
  if (!inDatabase) return undefined;
  return new DatabaseFileStorage(store.db, shared ? store.db : store.reads);
}

/** The storage `files.storage` names: the store's chunks ({@link chooseStoreStorage}) or `directory`. */
export function chooseFileStorage(options: StoreForBytes & { setting: ByteStorageSetting; directory: string }): FileStorage {
  return chooseStoreStorage(options.setting, options) ?? new LocalDiskFileStorage(options.directory);
}
