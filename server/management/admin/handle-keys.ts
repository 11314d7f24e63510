import type { OperationHandlers } from '../../../generated/operations.js';
import { adminOnly } from '../../access/admin-only.js';
import type { KeyAuthenticator } from '../../keys/key-authenticator.js';
import type { AccountStore } from '../../store/account-store.js';
import type { KeyStore } from '../../store/key-store.js';
import { defaultAccountId } from '../../store/migrations.js';
import { accountNotFound } from './handle-accounts.js';
import { renderChangedKey, renderCreatedKey, renderKey } from './render-key.js';

type KeyHandlers = Pick<OperationHandlers, 'createKey' | 'listKeys' | 'renameKey' | 'revokeKey'>;

/** The admin key API: create (the only time a secret is shown), list, rename and revoke (with every key minted from it). */
export function createKeyHandlers(store: KeyStore, accounts: AccountStore, authenticator: KeyAuthenticator): KeyHandlers {
  return adminOnly<KeyHandlers>({
    async createKey(req, res) {
      const { account_id: accountId = defaultAccountId, ...key } = req.body;
      if (!(await accounts.get(accountId))) throw accountNotFound(accountId);
      res.status(201).json(renderCreatedKey(await store.create({ ...key, accountId })));
    },
    async listKeys(_req, res) {
      res.json({ object: 'list', data: (await store.list()).map(renderKey) });
    },
    async renameKey(req, res) {
      res.json(renderChangedKey(await store.rename(req.params.key_id, req.body.name), req.params.key_id, authenticator));
    },
    async revokeKey(req, res) {
      res.json(renderChangedKey(await store.revoke(req.params.key_id), req.params.key_id, authenticator));
    },
  });
}
