import { useState } from 'preact/hooks';

export interface Action<A extends unknown[]> {
  run(...args: A): Promise<boolean>;
  busy: boolean;
  error: unknown;
  clearError(): void;
}

/**
 * A button's work: `busy` while it runs (to disable the button and say so), `error` when it failed.
 * `run` resolves to whether it succeeded, so callers can close a form only then.
 */
export function useAction<A extends unknown[]>(work: (...args: A) => Promise<unknown>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  async function run(...args: A): Promise<boolean> {
    setBusy(true);
    setError(undefined);
    try {
      await work(...args);
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { run, busy, error, clearError: () => setError(undefined) };
}
