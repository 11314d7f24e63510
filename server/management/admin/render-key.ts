import { GatewayError } from '../../core/gateway-error.js';
import type { KeyAuthenticator } from '../../keys/key-authenticator.js';
import type { KeyRecord } from '../../store/key-store.js';

/** A key as the admin API shows it: never its secret or hash. */
export const renderKey = (record: KeyRecord) => ({ object: 'api_key' as const, ...record });

/** A key just created: the one answer that carries its secret. */
export const renderCreatedKey = (created: { record: KeyRecord; secret: string }) => ({ ...renderKey(created.record), key: created.secret });

function keyNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No key with id ${id}.`, { param: 'key_id' });
}

/**
 * The answer to a rename or revoke: the key as it is now, its cached copy dropped so the change applies to
 * the next request. A missing record (no such key, or another account's) is a 404.
 */
export function renderChangedKey(record: KeyRecord | undefined, id: string, authenticator: KeyAuthenticator) {
  if (!record) throw keyNotFound(id);
  authenticator.forget(record.id);
  return renderKey(record);
}
