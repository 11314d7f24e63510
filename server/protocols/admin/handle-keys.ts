import type { OperationHandlers } from '../../../generated/operations.js';
import { GatewayError } from '../../http/gateway-error.js';
import type { KeyAuthenticator } from '../../keys/key-authenticator.js';
import type { AccountStore } from '../../store/account-store.js';
import type { KeyStore } from '../../store/key-store.js';
import { defaultAccountId } from '../../store/migrations.js';
import { accountNotFound } from './handle-accounts.js';
import { renderCreatedKey, renderKey } from './render-key.js';

type KeyHandlers = Pick<OperationHandlers, 'createKey' | 'listKeys' | 'revokeKey'>;

/** The admin key API: create (the only time a secret is shown), list and revoke. */
export function createKeyHandlers(store: KeyStore, accounts: AccountStore, authenticator: KeyAuthenticator): KeyHandlers {
  return {
    async createKey(req, res) {
      const { account_id: accountId = defaultAccountId, ...key } = req.body;
      if (!(await accounts.get(accountId))) throw accountNotFound(accountId);
      res.status(201).json(renderCreatedKey(await store.create({ ...key, accountId })));
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
