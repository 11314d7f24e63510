import type { ModelRequest, StreamEvent } from '../../core/internal-representation.js';
import { convertToGeminiRequest } from '../gemini/convert-request.js';
import { convertGeminiStream } from '../gemini/convert-stream.js';
import { createGeminiPassThrough } from '../gemini/forward-generate.js';
import type { CallContext, Provider } from '../provider.js';
import { readSse } from '../upstream/read-sse.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { predictEmbeddings } from './predict-embeddings.js';
import { vertexGeminiRoute } from './vertex-routes.js';

/**
 * Gemini models on Vertex: the Gemini API's wire format at Vertex's paths, so the Gemini folder's
 * conversions, stream reading and pass-through serve as they are. Translated requests always stream.
 * Google's embedding models answer Vertex's own `predict` (predict-embeddings.ts).
 */
export function geminiOnVertex(client: UpstreamClient, id: string, project: string, location: string): Provider {
  const route = vertexGeminiRoute(project, location);
  return {
    type: 'vertex',
    id,
    close: () => client.close(),
    async *stream(request: ModelRequest, context: CallContext): AsyncGenerator<StreamEvent> {
      // Converting first means an unconvertible request fails before any upstream call is made.
      const body = convertToGeminiRequest(request);
      const reply = await client.postJson(route.path(context.upstreamModel, 'streamGenerateContent'), body, context.signal);
      yield* convertGeminiStream(readSse(client.chunks(reply, context.signal)), id);
    },
    passThroughs: { gemini: createGeminiPassThrough(client, id, route) },
    embeddings: predictEmbeddings(client, id, project, location),
  };
}
