import type { OperationHandlers } from '../../../generated/operations.js';
import { adminOnly } from '../../access/admin-only.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { KeyAuthenticator } from '../../keys/key-authenticator.js';
import type { AccountRecord, AccountStore } from '../../store/account-store.js';
import type { KeyStore } from '../../store/key-store.js';
import { renderCreatedKey, renderKey } from './render-key.js';

type AccountHandlers = Pick<OperationHandlers, 'createAccount' | 'listAccounts' | 'getAccount' | 'updateAccount' | 'createAccountKey' | 'listAccountKeys'>;

export const renderAccount = (account: AccountRecord) => ({ object: 'account' as const, ...account });

/** The admin account API: accounts, their permissions and limits, and the keys they own. */
export function createAccountHandlers(accounts: AccountStore, keys: KeyStore, authenticator: KeyAuthenticator): AccountHandlers {
  const existing = async (id: string) => {
    const account = await accounts.get(id);
    if (!account) throw accountNotFound(id);
    return account;
  };
  return adminOnly<AccountHandlers>({
    async createAccount(req, res) {
      res.status(201).json(renderAccount(await accounts.create(req.body)));
    },
    async listAccounts(_req, res) {
      res.json({ object: 'list', data: (await accounts.list()).map(renderAccount) });
    },
    async getAccount(req, res) {
      res.json(renderAccount(await existing(req.params.account_id)));
    },
    async updateAccount(req, res) {
      const account = await accounts.update(req.params.account_id, req.body);
      if (!account) throw accountNotFound(req.params.account_id);
      // Its keys' cached permissions and disabled state are stale now.
      authenticator.forgetAccount(account.id);
      res.json(renderAccount(account));
    },
    async createAccountKey(req, res) {
      const account = await existing(req.params.account_id);
      res.status(201).json(renderCreatedKey(await keys.create({ ...req.body, accountId: account.id })));
    },
    async listAccountKeys(req, res) {
      const account = await existing(req.params.account_id);
      res.json({ object: 'list', data: (await keys.list(account.id)).map(renderKey) });
    },
  });
}

export function accountNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No account with id ${id}.`, { param: 'account_id' });
}
