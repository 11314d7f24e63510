import { useId, useState } from 'preact/hooks';
import { useAction } from '../hooks/use-action.js';
import { ErrorAlert } from './error-alert.js';
import { ModalDialog } from './modal-dialog.js';

interface RenameDialogProps {
  title: string;
  currentName: string;
  onRename(name: string): Promise<unknown>;
  onClose(): void;
}

/** Asks for a new name, starting from the current one. */
export function RenameDialog({ title, currentName, onRename, onClose }: RenameDialogProps) {
  const [name, setName] = useState(currentName);
  const inputId = useId();
  const action = useAction(onRename);
  async function submit(event: Event) {
    event.preventDefault();
    if (await action.run(name.trim())) onClose();
  }
  return (
    <ModalDialog title={title} onClose={onClose}>
      <form onSubmit={submit}>
        <div class="field">
          <label for={inputId}>New name</label>
          <input id={inputId} value={name} required maxLength={200} autoFocus onInput={(event) => setName(event.currentTarget.value)} />
        </div>
        <ErrorAlert error={action.error} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button button-primary" disabled={action.busy}>
            {action.busy ? 'Saving…' : 'Save name'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
