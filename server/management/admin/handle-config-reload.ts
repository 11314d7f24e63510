import type { OperationHandlers } from '../../../generated/operations.js';
import { adminOnly } from '../../access/admin-only.js';
import { ConfigError } from '../../config/interpolate-env.js';
import type { ConfigReloader } from '../../config/reload-config.js';
import { GatewayError } from '../../core/gateway-error.js';

/** `POST /admin/v1/config/reload`: what SIGHUP does, answering what changed or, for an invalid file, why not. */
export function createConfigReloadHandlers(reload: ConfigReloader): Pick<OperationHandlers, 'reloadConfig'> {
  return adminOnly<Pick<OperationHandlers, 'reloadConfig'>>({
    async reloadConfig(_req, res) {
      try {
        res.json(await reload());
      } catch (error) {
        // The running config stays; the message names the file and the line.
        if (error instanceof ConfigError) throw new GatewayError('invalid_request', error.message, { status: 400 });
        throw error;
      }
    },
  });
}
