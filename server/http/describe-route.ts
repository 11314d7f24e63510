import type { Response } from 'express';
import type { RouteTarget } from '../core/route-target.js';
import type { RequestContext } from '../core/request-context.js';

/**
 * Response headers that say how the gateway served a model request (see the spec's `GatewayModel`,
 * `GatewayProvider` and `GatewayDroppedParams` headers), and the route for metering and the request log.
 */
export function describeRoute(res: Response, context: RequestContext, target: RouteTarget, droppedParams: readonly string[] = []): void {
  res.setHeader('x-gateway-model', target.model.id);
  res.setHeader('x-gateway-provider', target.deployment.provider.id);
  if (droppedParams.length > 0) res.setHeader('x-gateway-dropped-params', droppedParams.map(headerSafeName).join(', '));
  context.route = { model: target.model.id, deployment: target.deployment.key };
}

/**
 * A field name as header text: names come from the client's body (fields translation leaves behind), and a
 * header value holds printable ASCII only; Node throws on anything else (a DEL, a control character, CJK).
 */
function headerSafeName(name: string): string {
  return /^[\x20-\x2b\x2d-\x7e]*$/.test(name) ? name : encodeURIComponent(name);
}
