import type { ComponentChildren } from 'preact';
import { useAction } from '../hooks/use-action.js';
import { ErrorAlert } from './error-alert.js';
import { ModalDialog } from './modal-dialog.js';

interface ConfirmDialogProps {
  title: string;
  children: ComponentChildren;
  /** The confirming button's text, a verb such as "Revoke key". */
  confirmLabel: string;
  /** Styles the confirming button as destructive. */
  danger?: boolean;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}

/** Asks before doing something that cannot be undone; stays open with the error if the work fails. */
export function ConfirmDialog({ title, children, confirmLabel, danger, onConfirm, onClose }: ConfirmDialogProps) {
  const action = useAction(onConfirm);
  async function confirm(event: Event) {
    event.preventDefault();
    if (await action.run()) onClose();
  }
  return (
    <ModalDialog title={title} onClose={onClose}>
      <form method="dialog" onSubmit={confirm}>
        <div class="dialog-body">{children}</div>
        <ErrorAlert error={action.error} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class={danger ? 'button button-danger' : 'button button-primary'} disabled={action.busy}>
            {action.busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
