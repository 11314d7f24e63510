import { useId, useRef } from 'preact/hooks';
import type { components } from '../../index.js';
import { CopyButton } from './copy-button.js';
import { ModalDialog } from './modal-dialog.js';

/**
 * The one time a new key's secret is visible: the gateway stores only its hash. The secret sits in a
 * read-only field, so it can be selected and copied by hand as well as with the button.
 */
export function SecretDialog({ created, onClose }: { created: components['schemas']['CreatedKey']; onClose(): void }) {
  const field = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  const selectSecret = () => {
    field.current?.focus();
    field.current?.select();
  };
  return (
    <ModalDialog title={`Key “${created.name}” created`} onClose={onClose}>
      <p>Copy the secret now and keep it somewhere safe. It is shown only once: the gateway keeps no copy it can show again.</p>
      <div class="field">
        <label for={fieldId}>New key secret</label>
        <div class="secret-row">
          <input id={fieldId} ref={field} class="secret" value={created.key} readOnly spellcheck={false} autoComplete="off" onFocus={selectSecret} />
          <CopyButton text={created.key} label="Copy secret" selectFallback={selectSecret} />
        </div>
      </div>
      <p class="hint">
        Use it as <code>Authorization: Bearer …</code> (or <code>x-api-key</code>, <code>x-goog-api-key</code>) with any of the gateway's APIs.
      </p>
      <div class="dialog-actions">
        <button type="button" class="button button-primary" onClick={onClose}>
          Done
        </button>
      </div>
    </ModalDialog>
  );
}
