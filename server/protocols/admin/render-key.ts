import type { KeyRecord } from '../../store/key-store.js';

/** A key as the admin API shows it: never its secret or hash. */
export const renderKey = (record: KeyRecord) => ({ object: 'api_key' as const, ...record });

/** A key just created: the one answer that carries its secret. */
export const renderCreatedKey = (created: { record: KeyRecord; secret: string }) => ({ ...renderKey(created.record), key: created.secret });
