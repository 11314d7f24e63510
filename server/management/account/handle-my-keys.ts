import type { OperationHandlers } from '../../../generated/operations.js';
import { principalOf } from '../../access/principal-of.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { KeyAuthenticator } from '../../keys/key-authenticator.js';
import { limitScopeKeyId, type KeyStore } from '../../store/key-store.js';
import { renderAccount } from '../admin/handle-accounts.js';
import { renderChangedKey, renderCreatedKey, renderKey } from '../admin/render-key.js';

type MyKeyHandlers = Pick<OperationHandlers, 'getMe' | 'listMyKeys' | 'createMyKey' | 'renameMyKey' | 'revokeMyKey'>;

/**
 * What an account key may do with keys (the console's user view): with itself and the keys minted from it,
 * transitively (its subtree), and nothing else, so a narrowed key minted from a wider one cannot list,
 * rename or revoke the wider one, nor its siblings. Any other key ID, of this account or another, is not
 * found (404), so its existence is not revealed.
 */
export function createMyKeyHandlers(store: KeyStore, authenticator: KeyAuthenticator): MyKeyHandlers {
  return {
    getMe(_req, res, context) {
      const { key, account } = principalOf(context);
      res.json({ object: 'me', key: renderKey(key), account: renderAccount(account) });
    },
    async listMyKeys(_req, res, context) {
      res.json({ object: 'list', data: (await store.listSubtree(principalOf(context).key.id)).map(renderKey) });
    },
    async createMyKey(req, res, context) {
      const { key, account } = principalOf(context);
      // The caller's narrowing carries over (and its ancestors' bind the new key at authentication), so a
      // restricted key cannot mint an unrestricted one, and the new key shares the caller's counters, so
      // minting keys cannot multiply the caller's limits.
      const created = await store.createChild(key.id, {
        name: req.body.name,
        accountId: account.id,
        permissions: key.permissions,
        limits: key.limits,
        sharesLimitsWith: limitScopeKeyId(key),
      });
      // The caller was revoked (it, or a key above it) while this request ran.
      if (!created) throw new GatewayError('authentication', 'This API key has been revoked.');
      res.status(201).json(renderCreatedKey(created));
    },
    async renameMyKey(req, res, context) {
      const record = await store.rename(req.params.key_id, req.body.name, principalOf(context).key.id);
      res.json(renderChangedKey(record, req.params.key_id, authenticator));
    },
    async revokeMyKey(req, res, context) {
      const record = await store.revoke(req.params.key_id, principalOf(context).key.id);
      res.json(renderChangedKey(record, req.params.key_id, authenticator));
    },
  };
}
