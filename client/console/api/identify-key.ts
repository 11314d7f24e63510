import { createClient, GatewayApiError } from '../../index.js';
import type { Session } from '../session.js';
import { describeError } from './describe-error.js';

export const rejectedKeyMessage = 'This key was not accepted: it is wrong, revoked or expired.';

/**
 * Finds out what a key opens. An account key answers `GET /v1/me`; the admin key is refused there (401)
 * and answers `GET /admin/v1/accounts`. Throws an Error whose message is ready to show: the key was
 * refused, the account is disabled (the gateway's 403 message) or the gateway cannot be reached.
 */
export async function identifyKey(apiKey: string): Promise<Session> {
  // No 401 hook here: a refused key at sign-in is an answer, not a reason to sign out.
  const client = createClient({ baseUrl: location.origin, apiKey });
  try {
    const me = await client.GET('/v1/me');
    if (me.data) return { apiKey, view: 'user', me: me.data };
    if (me.response.status !== 401) throw GatewayApiError.fromResponse(me.response, me.error);
    const accounts = await client.GET('/admin/v1/accounts');
    if (accounts.data) return { apiKey, view: 'admin' };
    if (accounts.response.status === 401) throw new Error(rejectedKeyMessage);
    throw GatewayApiError.fromResponse(accounts.response, accounts.error);
  } catch (error) {
    throw new Error(describeError(error), { cause: error });
  }
}
