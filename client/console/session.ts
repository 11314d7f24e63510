import type { components } from '../index.js';

/** Which half of the console a key opens: an account key sees its own account, the admin key every account. */
export type View = 'user' | 'admin';

/** Who is signed in. `me` is the account key's identity (`GET /v1/me`); the admin key has none. */
export interface Session {
  apiKey: string;
  view: View;
  me?: components['schemas']['Me'];
}

// Session storage only: the key lives as long as the tab and never reaches cookies or other tabs.
const storageKey = 'unified-model-api.console.session';

/** The key and view of this tab's earlier sign-in, to check again after a reload. */
export function loadStoredSession(): Pick<Session, 'apiKey' | 'view'> | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as Partial<Session> | null;
    if (typeof stored?.apiKey === 'string' && (stored.view === 'user' || stored.view === 'admin')) return { apiKey: stored.apiKey, view: stored.view };
  } catch {
    // A damaged entry is the same as none.
  }
  return undefined;
}

export function storeSession(session: Session): void {
  sessionStorage.setItem(storageKey, JSON.stringify({ apiKey: session.apiKey, view: session.view }));
}

export function clearStoredSession(): void {
  sessionStorage.removeItem(storageKey);
}
