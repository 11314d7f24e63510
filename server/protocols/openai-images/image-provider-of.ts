import type { RouteTarget } from '../../core/route-target.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ImageProvider } from '../../providers/provider.js';

/** The target deployment's image maker; a provider without one is a config the client cannot fix (400). */
export function imageProviderOf(target: RouteTarget): ImageProvider {
  const images = target.deployment.provider.images;
  if (!images) {
    throw new GatewayError('invalid_request', `The provider '${target.deployment.provider.id}' of model '${target.model.id}' cannot make images.`, { param: 'model' });
  }
  return images;
}
