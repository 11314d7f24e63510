import { GatewayError } from '../core/gateway-error.js';
import type { RequestContext } from '../core/request-context.js';
import type { Principal } from './principal.js';

/** The key (and its account) that authenticated this request; a 401 for any other caller, the admin included. */
export function principalOf(context: RequestContext): Principal {
  if (context.caller?.kind !== 'key') throw new GatewayError('authentication', 'An API key is required.');
  return context.caller.principal;
}
