import { useId, useMemo, useState } from 'preact/hooks';
import { unwrap, type components, type GatewayClient } from '../../index.js';
import { useResource, type Resource } from '../hooks/use-resource.js';

type Account = components['schemas']['Account'];

export interface AccountChoice {
  /** The picked account's id, or '' for every account. */
  accountId: string;
  setAccountId(accountId: string): void;
  /** The accounts to pick from: loaded for the admin only, empty for a user. */
  accounts: Resource<Account[]>;
  /** Account names by id, for a table that shows rows of every account; undefined once one is picked (or for a user). */
  accountNames: Map<string, string> | undefined;
}

/** The admin's choice of one account or all of them, for a page that lists rows of many accounts. */
export function useAccountChoice(client: GatewayClient, admin: boolean): AccountChoice {
  const [accountId, setAccountId] = useState('');
  const accounts = useResource(async () => (admin ? unwrap(await client.GET('/admin/v1/accounts')).data : []), [client]);
  const accountNames = useMemo(() => (admin && !accountId ? new Map((accounts.data ?? []).map((account) => [account.id, account.name])) : undefined), [accounts.data, accountId]);
  return { accountId, setAccountId, accounts, accountNames };
}

/** The "Account" select of a toolbar: "All accounts" or one of them. */
export function AccountFilter({ choice }: { choice: AccountChoice }) {
  const selectId = useId();
  return (
    <div class="field field-inline">
      <label for={selectId}>Account</label>
      <select id={selectId} value={choice.accountId} onChange={(event) => choice.setAccountId(event.currentTarget.value)}>
        <option value="">All accounts</option>
        {(choice.accounts.data ?? []).map((account) => (
          <option key={account.id} value={account.id}>
            {account.name}
          </option>
        ))}
      </select>
    </div>
  );
}
