import { configSchema, type GatewayConfig } from './config-schema.js';

/**
 * What the gateway serves with no config file: the built-in offline provider alone, so `npm start` on a
 * fresh machine answers without network or provider keys.
 */
export const defaultConfig: GatewayConfig = configSchema.parse({
  providers: [{ id: 'builtin', type: 'builtin', chunk_delay_ms: 20 }],
  models: [
    {
      id: 'builtin/echo',
      provider: 'builtin',
      upstream_model: 'echo',
      capabilities: ['chat', 'streaming', 'tools', 'json_schema'],
    },
  ],
});
