import { GatewayError } from '../../http/gateway-error.js';
import type { KeyRecord } from '../../store/key-store.js';

/** A key as the admin API shows it: never its secret or hash. */
export const renderKey = (record: KeyRecord) => ({ object: 'api_key' as const, ...record });

/** A key just created: the one answer that carries its secret. */
export const renderCreatedKey = (created: { record: KeyRecord; secret: string }) => ({ ...renderKey(created.record), key: created.secret });

export function keyNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No key with id ${id}.`, { param: 'key_id' });
}
