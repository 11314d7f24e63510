import { useState } from 'preact/hooks';
import type { components } from '../../index.js';
import type { KeyOperations } from '../api/key-operations.js';
import { useResource } from '../hooks/use-resource.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { CreateNamedForm } from './create-named-form.js';
import { ErrorAlert, StatusNote } from './error-alert.js';
import { KeyTable } from './key-table.js';
import { Loading } from './loading.js';
import { RenameDialog } from './rename-dialog.js';
import { SecretDialog } from './secret-dialog.js';

type Key = components['schemas']['Key'];
type CreatedKey = components['schemas']['CreatedKey'];

interface KeysPanelProps {
  operations: KeyOperations;
  /** The key the console is signed in with, marked in the list and warned about before revoking. */
  currentKeyId?: string;
  /** Account names by ID, to add an Account column (the admin's list of every key). */
  accountNames?: Map<string, string>;
  /** Changes when the list should be loaded again (e.g. the account whose keys these are). */
  reloadKey?: string;
}

/** A keys list with create (the secret shown once), rename and revoke. */
export function KeysPanel({ operations, currentKeyId, accountNames, reloadKey }: KeysPanelProps) {
  const keys = useResource(() => operations.list(), [reloadKey]);
  const [created, setCreated] = useState<CreatedKey>();
  const [renaming, setRenaming] = useState<Key>();
  const [revoking, setRevoking] = useState<Key>();
  const [note, setNote] = useState<string>();

  return (
    <>
      {operations.create && (
        <CreateNamedForm
          noun="key"
          placeholder="e.g. production server"
          create={async (name) => {
            const key = await operations.create!(name);
            setCreated(key);
            setNote(`Key “${key.name}” created.`);
            keys.reload();
          }}
        />
      )}
      <StatusNote message={note} />
      <ErrorAlert error={keys.error} />
      {keys.data === undefined ? (
        keys.loading && <Loading label="Loading keys…" />
      ) : keys.data.length === 0 ? (
        <p class="empty">No keys yet.</p>
      ) : (
        <KeyTable keys={keys.data} currentKeyId={currentKeyId} accountNames={accountNames} onRename={setRenaming} onRevoke={setRevoking} />
      )}
      {created && <SecretDialog created={created} onClose={() => setCreated(undefined)} />}
      {renaming && (
        <RenameDialog
          title={`Rename key “${renaming.name}”`}
          currentName={renaming.name}
          onClose={() => setRenaming(undefined)}
          onRename={async (name) => {
            await operations.rename(renaming.id, name);
            setNote(`Key renamed to “${name}”.`);
            keys.reload();
          }}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke key “${revoking.name}”?`}
          confirmLabel="Revoke key"
          danger
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await operations.revoke(revoking.id);
            setNote(`Key “${revoking.name}” revoked.`);
            keys.reload();
          }}
        >
          <p>Every request made with it, or with any key minted from it, will be refused (401) from now on. This cannot be undone.</p>
          {revoking.id === currentKeyId && (
            <p class="warning">
              <strong>This is the key you are signed in with.</strong> The console will sign you out.
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
