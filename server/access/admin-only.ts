import { GatewayError } from '../core/gateway-error.js';
import type { RequestContext } from '../core/request-context.js';

type Handler = (req: never, res: never, context: RequestContext) => unknown;

/**
 * Admin handlers, each refusing any caller but the admin. Authentication already lets only the admin key
 * reach admin operations; this is the second lock, so that no routing mistake (a path spelled another way,
 * a handler mounted twice) can hand an account key the admin API again.
 */
export function adminOnly<H extends Record<string, Handler>>(handlers: H): H {
  const guarded: Record<string, Handler> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    guarded[name] = (req, res, context) => {
      if (context.caller?.kind !== 'admin') {
        throw new GatewayError('authentication', 'Admin key required: send Authorization: Bearer <GATEWAY_ADMIN_KEY>.');
      }
      return handler(req, res, context);
    };
  }
  return guarded as H;
}
