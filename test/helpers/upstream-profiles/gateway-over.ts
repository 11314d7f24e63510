import { configSchema } from '../../../server/config/config-schema.js';
import { startGateway, type TestGateway } from '../start-gateway.js';
import { upstreamModel } from '../upstream-gateway.js';
import type { StartOptions } from './profile.js';

/** A gateway whose model `test-model` is `upstreamModel` on the one provider given (its id is `fake`). */
export function gatewayOver(provider: Record<string, unknown>, options: StartOptions = {}): Promise<TestGateway> {
  const config = configSchema.parse({
    providers: [{ id: 'fake', ...provider }],
    models: [{ id: 'test-model', provider: 'fake', upstream_model: upstreamModel, ...options.model }],
  });
  return startGateway({ config });
}
