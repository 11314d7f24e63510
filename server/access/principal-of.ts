import type { Response } from 'express';
import { GatewayError } from '../http/gateway-error.js';
import type { Principal } from './principal.js';

/** The caller authenticated for this request (see http/authenticate.ts). */
export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw new GatewayError('authentication', 'An API key is required.');
  return principal;
}
