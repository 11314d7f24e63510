/**
 * Chat Completions upstreams: OpenAI itself (`type: openai`) and, through the same code with different
 * quirks, every server that imitates it (`type: openai-compatible`, see ../openai-compatible/).
 *
 * The translation path converts the internal request (convert-request.ts) and the streamed answer
 * (convert-stream.ts); the pass-through (forward-chat.ts) serves clients that speak Chat Completions too,
 * and with `api: responses` forward-responses.ts serves Responses API clients from the upstream's own
 * `/responses`. forward-images.ts serves the Images API, and forward-image-stream.ts its streamed answers;
 * forward-embeddings.ts serves embeddings.
 */
import type { ProviderConfig } from '../../config/config-schema.js';
import type { ModelRequest, StreamEvent } from '../../core/internal-representation.js';
import { resolveQuirks, type ResolvedQuirks } from '../openai-compatible/quirks.js';
import type { CallContext, Provider } from '../provider.js';
import { readSse } from '../upstream/read-sse.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { convertRequest } from './convert-request.js';
import { convertStream } from './convert-stream.js';
import { createChatPassThrough } from './forward-chat.js';
import { createOpenAIBatches } from './forward-batches.js';
import { createOpenAIEmbeddings } from './forward-embeddings.js';
import { typeServes } from '../provider-config-rules.js';
import { createOpenAIImageStreaming } from './forward-image-stream.js';
import { createOpenAIImages } from './forward-images.js';
import { createResponsesPassThrough } from './forward-responses.js';
import { openAIPath, type OpenAIPath } from './paths.js';
import { readOpenAIError } from './read-error.js';
import type { ProviderDefinition } from '../provider-definition.js';

/** OpenAI's SDK convention: the base URL includes `/v1`. */
const defaultBaseUrl = 'https://api.openai.com/v1';

/** Where and how an OpenAI-shaped provider's calls go: its HTTP client (base URL, auth, error reading) and each call's path. */
export interface OpenAIUpstream {
  client: UpstreamClient;
  path: OpenAIPath;
}

/** OpenAI and its imitations: a bearer key (none for local servers) and the operation's path as it is. */
function openAIUpstream(config: ProviderConfig): OpenAIUpstream {
  const client = new UpstreamClient(config, defaultBaseUrl, {
    readError: readOpenAIError,
    headers: config.api_key ? { authorization: `Bearer ${config.api_key}` } : {},
  });
  return { client, path: openAIPath };
}

/**
 * Creates a Chat Completions provider. Without an `api_key` no `authorization` header is sent, which is
 * what local servers (Ollama, llama.cpp, vLLM) expect.
 *
 * @example
 * const provider = createOpenAIProvider({ id: 'openai', type: 'openai', api_key: process.env.OPENAI_API_KEY });
 * for await (const event of provider.stream(request, { upstreamModel: 'gpt-4.1-mini', signal })) …
 */
export function createOpenAIProvider(
  config: ProviderConfig,
  quirks: ResolvedQuirks = resolveQuirks(config.quirks, config.type),
  upstream: OpenAIUpstream = openAIUpstream(config),
): Provider {
  const { client, path } = upstream;
  return {
    type: config.type,
    id: config.id,
    async *stream(request: ModelRequest, context: CallContext): AsyncGenerator<StreamEvent> {
      // Both throw before the first event: a refused call can still be retried elsewhere.
      const body = convertRequest(request, context.upstreamModel, quirks);
      const reply = await client.postJson(path('/chat/completions', context.upstreamModel), body, context.signal);
      yield* convertStream(readSse(client.chunks(reply, context.signal)), config.id);
    },
    passThroughs: {
      'openai-chat': createChatPassThrough(client, config.id, quirks, path),
      ...(config.api === 'responses' ? { 'openai-responses': createResponsesPassThrough(client, config.id, path) } : {}),
    },
    images: {
      ...createOpenAIImages(client, path),
      // OpenAI streams partial images; servers that imitate it seldom do, so theirs are answered whole.
      ...(config.type === 'openai' ? { streaming: createOpenAIImageStreaming(client, config.id) } : {}),
    },
    embeddings: createOpenAIEmbeddings(client, config.id, path),
    // Azure's batch API differs (deployment types, paths): its type does not serve batches.
    ...(typeServes(config.type, 'batches') && { batches: createOpenAIBatches(client) }),
    close: () => client.close(),
  };
}

/** OpenAI's hosted models all take tools, images and JSON schemas; `reasoning` is opt-in per model (asking a non-reasoning model for it is an upstream error). */
export const openaiProvider: ProviderDefinition = {
  defaultCapabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema'],
  tokenLimits: { input: 128_000, output: 16_384 },
  inlinesImageUrls: false,
  genAiName: 'openai',
  create: (config) => createOpenAIProvider(config),
};
