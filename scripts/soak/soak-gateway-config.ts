import { parse, stringify } from 'yaml';
import { benchGatewayConfig } from '../bench/bench-gateway-config.js';

/** Model IDs the soak calls; the first two are the bench's, on the fake OpenAI upstream. */
export const soakModels = {
  upstreamChat: 'bench-chat',
  upstreamImage: 'bench-image',
  builtinChat: 'builtin/echo',
  builtinImage: 'builtin/image',
  builtinImageEdit: 'builtin/image-edit',
} as const;

/**
 * The bench's config (an OpenAI provider on the fake upstream) plus the built-in offline provider, so that
 * the soak runs both the upstream path (HTTP out, translation for non-OpenAI clients) and the in-process
 * one. The upstream image model also takes edits, which sends multipart on to the fake upstream.
 */
export function soakGatewayConfig(upstreamPort: number): string {
  const config = parse(benchGatewayConfig(upstreamPort)) as { providers: object[]; models: Array<Record<string, unknown>> };
  const upstreamImage = config.models.find((model) => model.id === soakModels.upstreamImage)!;
  upstreamImage.capabilities = ['image_generation', 'image_edit'];
  // A short pause between streamed chunks keeps built-in streams open long enough to be cut mid-way.
  config.providers.push({ id: 'builtin', type: 'builtin', chunk_delay_ms: 5 });
  const builtinSizes = ['256x256', '512x512'];
  config.models.push(
    { id: soakModels.builtinChat, provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming', 'tools', 'json_schema'] },
    { id: soakModels.builtinImage, provider: 'builtin', upstream_model: 'image', capabilities: ['image_generation'], images: { sizes: [...builtinSizes] } },
    { id: soakModels.builtinImageEdit, provider: 'builtin', upstream_model: 'image-edit', capabilities: ['image_edit'], images: { sizes: [...builtinSizes] } },
  );
  return stringify(config);
}
