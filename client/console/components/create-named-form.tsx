import { useId, useState } from 'preact/hooks';
import { useAction } from '../hooks/use-action.js';
import { ErrorAlert } from './error-alert.js';

interface CreateNamedFormProps {
  /** What is made, for the field's label and the button: `key` gives "Key name" and "Create key". */
  noun: string;
  placeholder: string;
  /** Makes the thing; an error it throws is shown under the form and the name is kept. */
  create(name: string): Promise<void>;
}

/** A name field and a Create button: how keys and accounts are made. */
export function CreateNamedForm({ noun, placeholder, create }: CreateNamedFormProps) {
  const [name, setName] = useState('');
  const nameId = useId();
  const action = useAction(async () => {
    await create(name.trim());
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
        <label for={nameId}>{`${noun[0].toUpperCase()}${noun.slice(1)} name`}</label>
        <input id={nameId} value={name} required maxLength={200} placeholder={placeholder} onInput={(event) => setName(event.currentTarget.value)} />
      </div>
      <button type="submit" class="button button-primary" disabled={action.busy}>
        {action.busy ? 'Creating…' : `Create ${noun}`}
      </button>
      <ErrorAlert error={action.error} />
    </form>
  );
}
