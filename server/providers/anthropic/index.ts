/**
 * The Anthropic Messages upstream (`type: anthropic`): POST /v1/messages, always streamed
 * (https://docs.anthropic.com/en/api/messages). The config's `base_url` has no `/v1`, as in Anthropic's SDK.
 *
 * Translated requests go through convert-request.ts and convert-stream.ts; Anthropic Messages clients are
 * forwarded by forward-messages.ts; count-tokens.ts asks the upstream's own `count_tokens`.
 */
import type { ProviderConfig } from '../../config/config-schema.js';
import type { ModelRequest, StreamEvent } from '../../core/internal-representation.js';
import type { CallContext, Provider } from '../provider.js';
import { readSse } from '../upstream/read-sse.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { convertRequestToAnthropic, jsonResponseToolName } from './convert-request.js';
import { convertAnthropicStream } from './convert-stream.js';
import { countAnthropicTokens } from './count-tokens.js';
import { createAnthropicBatches } from './forward-batches.js';
import { createMessagesPassThrough } from './forward-messages.js';
import { readAnthropicError } from './read-error.js';
import type { ProviderDefinition } from '../provider-definition.js';

/** The API version whose wire format this folder speaks; newer ones are opt-in per Anthropic's policy. */
export const anthropicVersion = '2023-06-01';

/**
 * Creates the provider for one configured Anthropic upstream, with its own connection pool.
 *
 * @example
 * const provider = createAnthropicProvider({ id: 'anthropic', type: 'anthropic', api_key: process.env.ANTHROPIC_API_KEY });
 * const response = await collectStream(provider.stream(request, { upstreamModel: 'claude-sonnet-4-5', signal }));
 */
export function createAnthropicProvider(config: ProviderConfig): Provider {
  const client = new UpstreamClient(config, 'https://api.anthropic.com', {
    readError: readAnthropicError,
    // Without a key (a proxy that adds its own, via the config's `headers`) no empty header is sent.
    headers: { ...(config.api_key ? { 'x-api-key': config.api_key } : {}), 'anthropic-version': anthropicVersion },
  });
  return {
    type: 'anthropic',
    id: config.id,
    close: () => client.close(),
    passThroughs: { 'anthropic-messages': createMessagesPassThrough(client, config.id) },
    batches: createAnthropicBatches(client),
    countTokens: (request, context) => countAnthropicTokens(client, config.id, request, context),
    async *stream(request: ModelRequest, context: CallContext): AsyncGenerator<StreamEvent> {
      const body = convertRequestToAnthropic(request, context.upstreamModel);
      // Awaited before the first yield, so a refused call throws while the router can still retry.
      const reply = await client.postJson('/v1/messages', body, context.signal);
      const jsonToolName = request.responseFormat.type === 'text' ? undefined : jsonResponseToolName;
      yield* convertAnthropicStream(readSse(client.chunks(reply, context.signal)), { providerId: config.id, jsonToolName });
    },
  };
}

/**
 * Anthropic's current models all take tools, images and JSON schemas; `reasoning` is opt-in per model.
 * Anthropic makes no images and offers no embeddings; it fetches image URLs itself.
 */
export const anthropicProvider: ProviderDefinition = {
  defaultCapabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema'],
  tokenLimits: { input: 200_000, output: 64_000 },
  inlinesImageUrls: false,
  genAiName: 'anthropic',
  create: createAnthropicProvider,
};
