import { useId, useState } from 'preact/hooks';
import type { components } from '../../../index.js';
import { ErrorAlert, StatusNote } from '../../components/error-alert.js';
import { useAction } from '../../hooks/use-action.js';
import { limitFields, limitsDraft, limitsFromDraft, type LimitsDraft } from './access-form-values.js';

type Limits = components['schemas']['Limits'];

/** Edits an account's ceilings. Saving replaces the limits whole; an empty field is no limit. */
export function LimitsForm({ limits, onSave }: { limits: Limits; onSave(limits: Limits): Promise<unknown> }) {
  const [draft, setDraft] = useState<LimitsDraft>(() => limitsDraft(limits));
  const [saved, setSaved] = useState<string>();
  const save = useAction(async () => {
    await onSave(limitsFromDraft(draft));
    setSaved('Limits saved.');
  });
  const idPrefix = useId();

  return (
    <form
      class="card form-card"
      aria-labelledby="limits-heading"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h2 id="limits-heading">Limits</h2>
      <p class="hint">Ceilings for all the account’s keys together. Over one, requests get 429 with a retry-after time. Empty means no limit.</p>
      <div class="field-grid">
        {limitFields.map((field) => (
          <div key={field.name} class="field">
            <label for={`${idPrefix}-${field.name}`}>{field.label}</label>
            <input
              id={`${idPrefix}-${field.name}`}
              type="number"
              inputMode={field.money ? 'decimal' : 'numeric'}
              min={field.money ? 0 : 1}
              step={field.money ? 0.01 : 1}
              value={draft[field.name]}
              aria-describedby={`${idPrefix}-${field.name}-hint`}
              onInput={(event) => {
                const value = event.currentTarget.value;
                setSaved(undefined);
                setDraft((current) => ({ ...current, [field.name]: value }));
              }}
            />
            <p id={`${idPrefix}-${field.name}-hint`} class="hint">
              {field.hint}
            </p>
          </div>
        ))}
      </div>
      <ErrorAlert error={save.error} />
      <div class="button-row">
        <button type="submit" class="button button-primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save limits'}
        </button>
        <StatusNote message={saved} />
      </div>
    </form>
  );
}
