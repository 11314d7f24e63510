import { unwrap, type components } from '../../../index.js';
import { CreateNamedForm } from '../../components/create-named-form.js';
import { ErrorAlert } from '../../components/error-alert.js';
import { Loading } from '../../components/loading.js';
import { Page } from '../../components/page.js';
import { TableScroll } from '../../components/table-scroll.js';
import { formatSeconds } from '../../format.js';
import { href, navigate } from '../../hash-route.js';
import { useResource } from '../../hooks/use-resource.js';
import { useSignedIn } from '../../session-context.js';
import { describeLimits, describePermissions } from './describe-access.js';

type Account = components['schemas']['Account'];

/** The admin's list of accounts, with what each may use and its limits, and a form to add one. */
export function AccountsPage() {
  const { client } = useSignedIn();
  const accounts = useResource(async () => unwrap(await client.GET('/admin/v1/accounts')).data, [client]);
  return (
    <Page title="Accounts" intro="Accounts own keys. Their permissions and limits bound every key of theirs.">
      <CreateNamedForm
        noun="account"
        placeholder="e.g. Research team"
        create={async (name) => {
          const account = unwrap(await client.POST('/admin/v1/accounts', { body: { name } }));
          // Straight to the new account, where its permissions, limits and first key are set.
          navigate('accounts', account.id);
        }}
      />
      <ErrorAlert error={accounts.error} />
      {accounts.data === undefined ? accounts.loading && <Loading label="Loading accounts…" /> : <AccountTable accounts={accounts.data} />}
    </Page>
  );
}

function AccountTable({ accounts }: { accounts: Account[] }) {
  return (
    <TableScroll label="Accounts">
      <table class="table">
        <caption>
          {accounts.length} {accounts.length === 1 ? 'account' : 'accounts'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Permissions</th>
            <th scope="col">Limits</th>
            <th scope="col">Created</th>
            <th scope="col">ID</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account) => (
            <tr key={account.id} class={account.disabled_at === null ? undefined : 'row-muted'}>
              <th scope="row">
                <a href={href('accounts', account.id)}>{account.name}</a>
              </th>
              <td>{account.disabled_at === null ? <span class="status status-ok">Enabled</span> : <span class="status status-off">Disabled</span>}</td>
              <td>
                <Lines lines={describePermissions(account.permissions)} none="Everything" />
              </td>
              <td>
                <Lines lines={describeLimits(account.limits)} none="No limits" />
              </td>
              <td class="nowrap">{formatSeconds(account.created_at)}</td>
              <td>
                <code>{account.id}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Lines({ lines, none }: { lines: string[]; none: string }) {
  if (lines.length === 0) return <span class="muted">{none}</span>;
  return (
    <ul class="plain-list">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
