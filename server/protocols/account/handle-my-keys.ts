import type { OperationHandlers } from '../../../generated/operations.js';
import { principalOf } from '../../access/principal-of.js';
import type { KeyAuthenticator } from '../../keys/key-authenticator.js';
import { limitScopeKeyId, type KeyStore } from '../../store/key-store.js';
import { renderAccount } from '../admin/handle-accounts.js';
import { renderChangedKey, renderCreatedKey, renderKey } from '../admin/render-key.js';

type MyKeyHandlers = Pick<OperationHandlers, 'getMe' | 'listMyKeys' | 'createMyKey' | 'renameMyKey' | 'revokeMyKey'>;

/**
 * What an account key may do with its own account's keys (the console's user view). Every query is
 * scoped to the caller's account, so another account's key ID is simply not found.
 */
export function createMyKeyHandlers(store: KeyStore, authenticator: KeyAuthenticator): MyKeyHandlers {
  return {
    getMe(_req, res, context) {
      const { key, account } = principalOf(context);
      res.json({ object: 'me', key: renderKey(key), account: renderAccount(account) });
    },
    async listMyKeys(_req, res, context) {
      res.json({ object: 'list', data: (await store.list(principalOf(context).account.id)).map(renderKey) });
    },
    async createMyKey(req, res, context) {
      const { key, account } = principalOf(context);
      // The caller's own narrowing carries over, so a restricted key cannot mint an unrestricted one, and
      // the new key shares the caller's counters, so minting keys cannot multiply the caller's limits.
      const created = await store.create({
        name: req.body.name,
        accountId: account.id,
        permissions: key.permissions,
        limits: key.limits,
        sharesLimitsWith: limitScopeKeyId(key),
      });
      res.status(201).json(renderCreatedKey(created));
    },
    async renameMyKey(req, res, context) {
      const record = await store.rename(req.params.key_id, req.body.name, principalOf(context).account.id);
      res.json(renderChangedKey(record, req.params.key_id, authenticator));
    },
    async revokeMyKey(req, res, context) {
      const record = await store.revoke(req.params.key_id, principalOf(context).account.id);
      res.json(renderChangedKey(record, req.params.key_id, authenticator));
    },
  };
}
