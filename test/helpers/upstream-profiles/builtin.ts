import { startGateway } from '../start-gateway.js';
import type { UpstreamProfile } from './profile.js';

/** The built-in model answers in process: no upstream to script or read. */
export const builtinProfile: UpstreamProfile = {
  name: 'builtin',
  type: 'builtin',
  async start() {
    const gateway = await startGateway();
    return { gateway, model: 'builtin/echo', close: () => gateway.close() };
  },
};
