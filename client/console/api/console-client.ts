import { createClient, type GatewayClient } from '../../index.js';

/**
 * The typed gateway client for a signed-in session. Every answer passes through `onUnauthorized` when it
 * is a 401, so a key revoked or expired mid-session signs the tab out wherever the call was made.
 */
export function createConsoleClient(apiKey: string, onUnauthorized: () => void): GatewayClient {
  const client = createClient({ baseUrl: location.origin, apiKey });
  client.use({
    onResponse({ response }) {
      if (response.status === 401) onUnauthorized();
      return undefined;
    },
  });
  return client;
}
