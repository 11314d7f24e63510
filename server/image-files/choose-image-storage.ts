import type { ByteStorageSetting } from '../config/config-schema.js';
import { chooseStoreStorage, type StoreForBytes } from '../files/choose-file-storage.js';
import { DatabaseImageStorage } from './database-image-storage.js';
import type { ImageStorage } from './image-storage.js';
import { LocalDiskImageStorage } from './local-disk-image-storage.js';

/**
 * The storage `images.storage` names, decided as for files (`auto`: the store on PostgreSQL, so any
 * instance serves any image URL; the disk on SQLite): the store's chunks, or `directory`.
 */
export function chooseImageStorage(options: StoreForBytes & { setting: ByteStorageSetting; directory: string }): ImageStorage {
  const inStore = chooseStoreStorage(options.setting, options);
  return inStore ? new DatabaseImageStorage(options.db, inStore) : new LocalDiskImageStorage(options.directory);
}
