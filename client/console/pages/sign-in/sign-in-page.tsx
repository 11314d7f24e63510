import { useEffect, useId, useState } from 'preact/hooks';
import { ErrorAlert } from '../../components/error-alert.js';

interface SignInPageProps {
  onSignIn(apiKey: string): Promise<void>;
  /** Why the tab is on this page again (a sign-in refused, a key revoked mid-session). */
  notice?: string;
  /** True while a key kept from before a reload is checked. */
  restoring?: boolean;
}

/** Asks for an account key or the admin key; which one it is decides the view. */
export function SignInPage({ onSignIn, notice, restoring }: SignInPageProps) {
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const keyId = useId();
  const helpId = useId();

  useEffect(() => {
    document.title = 'Sign in · Unified Model API console';
  }, []);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onSignIn(apiKey.trim());
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setBusy(false);
    }
  }

  const message = error ?? notice;
  return (
    <main id="main" class="sign-in">
      <div class="sign-in-card">
        <p class="brand brand-large">
          <span class="brand-mark" aria-hidden="true">
            ◆
          </span>
          Unified Model API
        </p>
        <h1>Sign in to the console</h1>
        <p class="intro">One base URL and one API key for many models. Manage your keys, watch usage and try models here.</p>
        <form onSubmit={submit} aria-busy={busy || restoring}>
          <div class="field">
            <label for={keyId}>API key</label>
            <input
              id={keyId}
              type="password"
              value={apiKey}
              required
              autoFocus
              autoComplete="off"
              spellcheck={false}
              aria-describedby={helpId}
              disabled={restoring}
              onInput={(event) => setApiKey(event.currentTarget.value)}
            />
            <p id={helpId} class="hint">
              An account key opens your account; the gateway's admin key opens every account. The key stays in this tab only and is forgotten when you close it.
            </p>
          </div>
          <ErrorAlert message={message} />
          <button type="submit" class="button button-primary button-wide" disabled={busy || restoring}>
            {restoring ? 'Checking your session…' : busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <p class="sign-in-links">
          <a href="/docs/">API docs</a>
          <span aria-hidden="true"> · </span>
          <a href="/openapi.yaml">OpenAPI spec</a>
        </p>
      </div>
    </main>
  );
}
