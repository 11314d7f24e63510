import type { OperationHandlers } from '../../../generated/operations.js';
import { GatewayError } from '../../http/gateway-error.js';
import type { KeyAuthenticator } from '../../keys/key-authenticator.js';
import type { KeyRecord, KeyStore } from '../../store/key-store.js';

type KeyHandlers = Pick<OperationHandlers, 'createKey' | 'listKeys' | 'revokeKey'>;

const renderKey = (record: KeyRecord) => ({ object: 'api_key' as const, ...record });

/** The admin key API: create (the only time a secret is shown), list and revoke. */
export function createKeyHandlers(store: KeyStore, authenticator: KeyAuthenticator): KeyHandlers {
  return {
    async createKey(req, res) {
      const { record, secret } = await store.create(req.body.name);
      res.status(201).json({ ...renderKey(record), key: secret });
    },
    async listKeys(_req, res) {
      res.json({ object: 'list', data: (await store.list()).map(renderKey) });
    },
    async revokeKey(req, res) {
      const record = await store.revoke(req.params.key_id);
      if (!record) throw new GatewayError('not_found', `No key with id ${req.params.key_id}.`, { param: 'key_id' });
      authenticator.forget(record.id);
      res.json(renderKey(record));
    },
  };
}
