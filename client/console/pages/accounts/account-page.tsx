import { useMemo, useState } from 'preact/hooks';
import { unwrap, type components } from '../../../index.js';
import { accountKeys } from '../../api/key-operations.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorAlert, StatusNote } from '../../components/error-alert.js';
import { KeysPanel } from '../../components/keys-panel.js';
import { Loading } from '../../components/loading.js';
import { Page } from '../../components/page.js';
import { RenameDialog } from '../../components/rename-dialog.js';
import { formatSeconds } from '../../format.js';
import { href } from '../../hash-route.js';
import { useAction } from '../../hooks/use-action.js';
import { useResource } from '../../hooks/use-resource.js';
import { useSignedIn } from '../../session-context.js';
import { LimitsForm } from './limits-form.js';
import { PermissionsForm } from './permissions-form.js';
import './accounts.css';

type UpdateAccountRequest = components['schemas']['UpdateAccountRequest'];

/** One account: its name and status, permissions, limits and keys. */
export function AccountPage({ accountId }: { accountId: string }) {
  const { client } = useSignedIn();
  const account = useResource(async () => unwrap(await client.GET('/admin/v1/accounts/{account_id}', { params: { path: { account_id: accountId } } })), [client, accountId]);
  const keyOperations = useMemo(() => accountKeys(client, accountId), [client, accountId]);
  const [dialog, setDialog] = useState<'rename' | 'disable'>();
  const [note, setNote] = useState<string>();
  const update = async (body: UpdateAccountRequest) => {
    unwrap(await client.PATCH('/admin/v1/accounts/{account_id}', { params: { path: { account_id: accountId } }, body }));
    account.reload();
  };
  const enable = useAction(async () => {
    await update({ disabled: false });
    setNote('Account enabled.');
  });

  const data = account.data;
  return (
    <Page title={data ? `Account: ${data.name}` : 'Account'} intro={<a href={href('accounts')}>← All accounts</a>}>
      <ErrorAlert error={account.error ?? enable.error} />
      {!data && account.loading && <Loading label="Loading the account…" />}
      {data && (
        <>
          <section class="card account-summary" aria-label="Account details">
            <dl class="facts">
              <div>
                <dt>ID</dt>
                <dd>
                  <code>{data.id}</code>
                </dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>{formatSeconds(data.created_at)}</dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>{data.disabled_at === null ? <span class="status status-ok">Enabled</span> : <span class="status status-off">Disabled since {formatSeconds(data.disabled_at)}</span>}</dd>
              </div>
            </dl>
            <div class="button-row">
              <button type="button" class="button" onClick={() => setDialog('rename')}>
                Rename account
              </button>
              {data.disabled_at === null ? (
                <button type="button" class="button button-danger-outline" onClick={() => setDialog('disable')}>
                  Disable account
                </button>
              ) : (
                <button type="button" class="button" onClick={() => void enable.run()} disabled={enable.busy}>
                  Enable account
                </button>
              )}
            </div>
            <StatusNote message={note} />
          </section>
          <div class="form-columns">
            <PermissionsForm key={`${data.id}-permissions`} permissions={data.permissions} onSave={(permissions) => update({ permissions })} />
            <LimitsForm key={`${data.id}-limits`} limits={data.limits} onSave={(limits) => update({ limits })} />
          </div>
          <section>
            <h2>Keys</h2>
            <KeysPanel operations={keyOperations} reloadKey={accountId} />
          </section>
          {dialog === 'rename' && (
            <RenameDialog
              title={`Rename account “${data.name}”`}
              currentName={data.name}
              onClose={() => setDialog(undefined)}
              onRename={async (name) => {
                await update({ name });
                setNote(`Account renamed to “${name}”.`);
              }}
            />
          )}
          {dialog === 'disable' && (
            <ConfirmDialog
              title={`Disable account “${data.name}”?`}
              confirmLabel="Disable account"
              danger
              onClose={() => setDialog(undefined)}
              onConfirm={async () => {
                await update({ disabled: true });
                setNote('Account disabled.');
              }}
            >
              <p>Every key of this account will get 403 until you enable it again. Its keys, usage and settings are kept.</p>
            </ConfirmDialog>
          )}
        </>
      )}
    </Page>
  );
}
