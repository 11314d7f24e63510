import { useEffect, useMemo, useState } from 'preact/hooks';
import { createConsoleClient } from './api/console-client.js';
import { identifyKey } from './api/identify-key.js';
import { homeRoute, Shell } from './components/shell.js';
import { navigate, useHashRoute } from './hash-route.js';
import { ConsoleRoutes } from './console-routes.js';
import { SignInPage } from './pages/sign-in/sign-in-page.js';
import { clearStoredSession, loadStoredSession, storeSession, type Session } from './session.js';
import { SessionContext, type SignedIn } from './session-context.js';

export const revokedMidSessionMessage = 'Your key is no longer valid (it was revoked or has expired). Sign in with another key.';

/** The console: the sign-in page until a key is accepted, then the shell around the current view. */
export function App() {
  const [session, setSession] = useState<Session>();
  const [notice, setNotice] = useState<string>();
  const [restoring, setRestoring] = useState(() => loadStoredSession() !== undefined);
  const route = useHashRoute();

  function signOut(message?: string) {
    clearStoredSession();
    setSession(undefined);
    setNotice(message);
  }

  // A reload keeps the tab signed in: the stored key is checked again, since it may have been revoked.
  useEffect(() => {
    const stored = loadStoredSession();
    if (!stored) return;
    identifyKey(stored.apiKey).then(
      (found) => {
        storeSession(found);
        setSession(found);
      },
      (error: Error) => signOut(error.message),
    ).finally(() => setRestoring(false));
  }, []);

  const signedIn = useMemo<SignedIn | undefined>(() => {
    if (!session) return undefined;
    return {
      session,
      client: createConsoleClient(session.apiKey, () => signOut(revokedMidSessionMessage)),
      signOut: () => signOut(),
    };
  }, [session]);

  async function signIn(apiKey: string) {
    const found = await identifyKey(apiKey);
    storeSession(found);
    setNotice(undefined);
    setSession(found);
    // Keep a deep link (`#/models`), unless it is a view this key cannot open.
    if (route.length === 0 || (found.view === 'user' && route[0] === 'accounts')) navigate(homeRoute(found));
  }

  if (!signedIn) return <SignInPage onSignIn={signIn} notice={notice} restoring={restoring} />;
  const current = route[0] ?? homeRoute(signedIn.session);
  return (
    <SessionContext.Provider value={signedIn}>
      <Shell session={signedIn.session} current={current} onSignOut={signedIn.signOut}>
        <ConsoleRoutes view={signedIn.session.view} route={route.length ? route : [current]} />
      </Shell>
    </SessionContext.Provider>
  );
}
