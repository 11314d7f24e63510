import { useId, useState } from 'preact/hooks';
import type { components } from '../../../index.js';
import { allCapabilities, capabilityLabel } from '../../components/capability-badges.js';
import { ErrorAlert, StatusNote } from '../../components/error-alert.js';
import { useAction } from '../../hooks/use-action.js';
import { permissionsDraft, permissionsFromDraft, type PermissionsDraft } from './access-form-values.js';

type Permissions = components['schemas']['Permissions'];

/** Edits what an account may use. Saving replaces the permissions whole, as the admin API does. */
export function PermissionsForm({ permissions, onSave }: { permissions: Permissions; onSave(permissions: Permissions): Promise<unknown> }) {
  const [draft, setDraft] = useState<PermissionsDraft>(() => permissionsDraft(permissions));
  const [saved, setSaved] = useState<string>();
  const save = useAction(async () => {
    await onSave(permissionsFromDraft(draft));
    setSaved('Permissions saved.');
  });
  const ids = { models: useId(), tokens: useId(), sizes: useId(), images: useId(), modelsHint: useId(), sizesHint: useId() };
  const update = (change: Partial<PermissionsDraft>) => {
    setSaved(undefined);
    setDraft((current) => ({ ...current, ...change }));
  };

  return (
    <form
      class="card form-card"
      aria-labelledby="permissions-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h2 id="permissions-heading">Permissions</h2>
      <p class="hint">What the account’s keys may use. An empty field allows everything; keys can be narrowed further.</p>
      <div class="field">
        <label for={ids.models}>Allowed models (one per line)</label>
        <textarea
          id={ids.models}
          rows={3}
          value={draft.models}
          aria-describedby={ids.modelsHint}
          spellcheck={false}
          placeholder={'builtin/*\nopenai/gpt-4.1-mini'}
          onInput={(event) => update({ models: event.currentTarget.value })}
        />
        <p id={ids.modelsHint} class="hint">
          Model IDs, or <code>prefix/*</code> for every model under a prefix.
        </p>
      </div>
      <fieldset class="field">
        <legend>Allowed capabilities</legend>
        <p class="hint">Tick none to allow every capability.</p>
        <div class="checkbox-grid">
          {allCapabilities.map((capability) => (
            <label key={capability} class="checkbox">
              <input
                type="checkbox"
                checked={draft.capabilities.includes(capability)}
                onChange={(event) =>
                  update({
                    capabilities: event.currentTarget.checked ? [...draft.capabilities, capability] : draft.capabilities.filter((entry) => entry !== capability),
                  })
                }
              />
              {capabilityLabel(capability)}
            </label>
          ))}
        </div>
      </fieldset>
      <div class="field-row">
        <div class="field">
          <label for={ids.tokens}>Max output tokens per request</label>
          <input id={ids.tokens} type="number" inputMode="numeric" min={1} step={1} value={draft.max_output_tokens} onInput={(event) => update({ max_output_tokens: event.currentTarget.value })} />
        </div>
        <div class="field">
          <label for={ids.images}>Max images per request</label>
          <input id={ids.images} type="number" inputMode="numeric" min={1} step={1} value={draft.max_images} onInput={(event) => update({ max_images: event.currentTarget.value })} />
        </div>
      </div>
      <div class="field">
        <label for={ids.sizes}>Allowed image sizes (one per line)</label>
        <textarea id={ids.sizes} rows={2} value={draft.image_sizes} aria-describedby={ids.sizesHint} spellcheck={false} placeholder="1024x1024" onInput={(event) => update({ image_sizes: event.currentTarget.value })} />
        <p id={ids.sizesHint} class="hint">
          <code>WIDTHxHEIGHT</code> or <code>auto</code>.
        </p>
      </div>
      <ErrorAlert error={save.error} />
      <div class="button-row">
        <button type="submit" class="button button-primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save permissions'}
        </button>
        <StatusNote message={saved} />
      </div>
    </form>
  );
}
