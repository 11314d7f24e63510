import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { GatewayClient } from '../index.js';
import type { Session } from './session.js';

export interface SignedIn {
  session: Session;
  /** The typed client with the session's key; a 401 from any call signs the tab out. */
  client: GatewayClient;
  signOut(): void;
}

export const SessionContext = createContext<SignedIn | undefined>(undefined);

/** The signed-in session, for components under the console's shell (which only renders when signed in). */
export function useSignedIn(): SignedIn {
  const signedIn = useContext(SessionContext);
  if (!signedIn) throw new Error('useSignedIn() outside a signed-in session');
  return signedIn;
}
