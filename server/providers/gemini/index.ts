/**
 * The Google Gemini upstream (`type: gemini`): the Gemini API's generateContent family
 * (https://ai.google.dev/api/generate-content). Translated requests always stream
 * (`:streamGenerateContent?alt=sse`); non-streamed answers are this stream collected. Gemini clients are
 * passed through (forward-generate.ts), token counts come from the upstream's own `:countTokens`, image
 * models serve the Images API (generate-images.ts) and embedding models `:batchEmbedContents` (embed-contents.ts).
 */
import type { ProviderConfig } from '../../config/config-schema.js';
import type { ModelRequest, StreamEvent } from '../../core/internal-representation.js';
import type { CallContext, Provider } from '../provider.js';
import { readSse } from '../upstream/read-sse.js';
import { UpstreamClient } from '../upstream/upstream-client.js';
import { convertToGeminiRequest } from './convert-request.js';
import { convertGeminiStream } from './convert-stream.js';
import { createGeminiPassThrough, geminiModelPath } from './forward-generate.js';
import { createGeminiEmbeddings } from './embed-contents.js';
import { createGeminiImages } from './generate-images.js';
import { readGeminiError } from './read-error.js';
import type { ProviderDefinition } from '../provider-definition.js';

/** The config's `base_url` has no API version, like the `@google/genai` SDK's `httpOptions.baseUrl`. */
export const defaultGeminiBaseUrl = 'https://generativelanguage.googleapis.com';

/** The streaming endpoint for a model name as Gemini knows it (`gemini-2.5-flash`, without `models/`). */
export function geminiStreamPath(upstreamModel: string): string {
  return geminiModelPath(upstreamModel, 'streamGenerateContent');
}

/**
 * Creates a Gemini provider with its own connection pool. The key travels in `x-goog-api-key`, never in
 * the URL, so it cannot end up in logs of URLs.
 *
 * @example
 * const provider = createGeminiProvider({ id: 'google', type: 'gemini', api_key: process.env.GEMINI_API_KEY });
 * for await (const event of provider.stream(request, { upstreamModel: 'gemini-2.5-flash', signal })) console.log(event);
 */
export function createGeminiProvider(config: ProviderConfig): Provider {
  const client = new UpstreamClient(config, defaultGeminiBaseUrl, {
    readError: readGeminiError,
    // Without a key (a proxy that adds its own, via the config's `headers`) no empty header is sent.
    headers: config.api_key ? { 'x-goog-api-key': config.api_key } : {},
  });
  return {
    type: 'gemini',
    id: config.id,
    close: () => client.close(),
    async *stream(request: ModelRequest, context: CallContext): AsyncGenerator<StreamEvent> {
      // Converting first means an unconvertible request fails before any upstream call is made.
      const body = convertToGeminiRequest(request);
      const reply = await client.postJson(geminiStreamPath(context.upstreamModel), body, context.signal);
      yield* convertGeminiStream(readSse(client.chunks(reply, context.signal)), config.id);
    },
    passThroughs: { gemini: createGeminiPassThrough(client, config.id) },
    images: createGeminiImages(client),
    embeddings: createGeminiEmbeddings(client, config.id),
    /**
     * Counts the whole request (system instruction and tools included) through `generateContentRequest`,
     * which names its model (https://ai.google.dev/api/tokens#method:-models.counttokens).
     */
    async countTokens(request: ModelRequest, context: CallContext): Promise<number> {
      const generateContentRequest = { model: `models/${context.upstreamModel}`, ...convertToGeminiRequest(request) };
      const { totalTokens } = await client.exchangeJson(geminiModelPath(context.upstreamModel, 'countTokens'), { generateContentRequest }, context.signal);
      // Google's JSON leaves out zero values.
      return typeof totalTokens === 'number' && Number.isFinite(totalTokens) ? totalTokens : 0;
    },
  };
}

/**
 * Gemini's current models all take tools, images and JSON schemas; `reasoning` is opt-in per model. The
 * Gemini API also offers embeddings (`embedContent`) and fetches image URLs itself.
 */
export const geminiProvider: ProviderDefinition = {
  defaultCapabilities: ['chat', 'streaming', 'tools', 'vision', 'json_schema'],
  tokenLimits: { input: 1_048_576, output: 65_536 },
  inlinesImageUrls: false,
  genAiName: 'gcp.gemini',
  create: createGeminiProvider,
};
