import { useId, useState } from 'preact/hooks';
import type { components } from '../../index.js';
import { useAction } from '../hooks/use-action.js';
import { ErrorAlert } from './error-alert.js';

type CreatedKey = components['schemas']['CreatedKey'];

/** A name field and a Create button; the caller shows the secret of the key made. */
export function CreateKeyForm({ create, onCreated }: { create(name: string): Promise<CreatedKey>; onCreated(key: CreatedKey): void }) {
  const [name, setName] = useState('');
  const nameId = useId();
  const action = useAction(async () => {
    onCreated(await create(name.trim()));
    setName('');
  });
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run();
      }}
    >
      <div class="field">
        <label for={nameId}>Key name</label>
        <input id={nameId} value={name} required maxLength={200} placeholder="e.g. production server" onInput={(event) => setName(event.currentTarget.value)} />
      </div>
      <button type="submit" class="button button-primary" disabled={action.busy}>
        {action.busy ? 'Creating…' : 'Create key'}
      </button>
      <ErrorAlert error={action.error} />
    </form>
  );
}
