import type { KeyRecord } from '../../store/key-store.js';

/** A key as the admin API shows it: never its secret or hash. */
export const renderKey = (record: KeyRecord) => ({ object: 'api_key' as const, ...record });
