import { configSchema, type GatewayConfig } from './config-schema.js';

/** The sizes the built-in image models take: OpenAI's GPT image sizes and small ones for quick tries. */
const builtinImageSizes = ['auto', '256x256', '512x512', '1024x1024', '1536x1024', '1024x1536'];

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
    {
      id: 'builtin/embed',
      provider: 'builtin',
      upstream_model: 'embed',
      capabilities: ['embeddings'],
    },
    {
      id: 'builtin/image',
      provider: 'builtin',
      upstream_model: 'image',
      capabilities: ['image_generation'],
      images: { sizes: builtinImageSizes },
    },
    {
      id: 'builtin/image-edit',
      provider: 'builtin',
      upstream_model: 'image-edit',
      capabilities: ['image_edit'],
      images: { sizes: builtinImageSizes },
    },
  ],
});
