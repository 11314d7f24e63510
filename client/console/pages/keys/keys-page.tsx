import { useMemo } from 'preact/hooks';
import { unwrap } from '../../../index.js';
import { allKeys, myKeys } from '../../api/key-operations.js';
import { KeysPanel } from '../../components/keys-panel.js';
import { Page } from '../../components/page.js';
import { useResource } from '../../hooks/use-resource.js';
import { useSignedIn } from '../../session-context.js';

/** The account's own keys, or for the admin every key of every account. */
export function KeysPage() {
  const { session } = useSignedIn();
  return session.view === 'admin' ? <AllKeys /> : <MyKeys />;
}

function MyKeys() {
  const { client, session } = useSignedIn();
  const operations = useMemo(() => myKeys(client), [client]);
  return (
    <Page title="API keys" intro="Keys of your account. Every key works with all of the gateway's APIs, within your account's permissions and limits.">
      <KeysPanel operations={operations} currentKeyId={session.me?.key.id} />
    </Page>
  );
}

function AllKeys() {
  const { client } = useSignedIn();
  const operations = useMemo(() => allKeys(client), [client]);
  const accounts = useResource(async () => unwrap(await client.GET('/admin/v1/accounts')).data, [client]);
  const accountNames = useMemo(() => new Map((accounts.data ?? []).map((account) => [account.id, account.name])), [accounts.data]);
  return (
    <Page title="API keys" intro={<>Every key of every account. To create a key, open its account on the <a href="#/accounts">Accounts</a> page.</>}>
      <KeysPanel operations={operations} accountNames={accountNames} />
    </Page>
  );
}
