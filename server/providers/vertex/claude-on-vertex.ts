import type { ModelRequest, StreamEvent } from '../../core/internal-representation.js';
import { convertRequestToAnthropic, jsonResponseToolName } from '../anthropic/convert-request.js';
import { convertAnthropicStream } from '../anthropic/convert-stream.js';
import { createMessagesPassThrough } from '../anthropic/forward-messages.js';
import type { CallContext, Provider } from '../provider.js';
import { readSse } from '../upstream/read-sse.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { vertexAnthropicRoute } from './vertex-routes.js';

/**
 * Claude models on Vertex: Anthropic's Messages wire format behind `:rawPredict`/`:streamRawPredict`, so
 * the Anthropic folder's conversions, stream reading and pass-through serve as they are. Translated
 * requests always stream.
 */
export function claudeOnVertex(client: UpstreamClient, id: string, project: string, location: string): Provider {
  const route = vertexAnthropicRoute(project, location);
  return {
    type: 'vertex',
    id,
    close: () => client.close(),
    passThroughs: { 'anthropic-messages': createMessagesPassThrough(client, id, route) },
    async *stream(request: ModelRequest, context: CallContext): AsyncGenerator<StreamEvent> {
      const body = route.body({ ...convertRequestToAnthropic(request, context.upstreamModel) }, context.upstreamModel);
      // Awaited before the first yield, so a refused call throws while the router can still retry.
      const reply = await client.postJson(route.path(context.upstreamModel, true), body, context.signal);
      const jsonToolName = request.responseFormat.type === 'text' ? undefined : jsonResponseToolName;
      yield* convertAnthropicStream(readSse(client.chunks(reply, context.signal)), { providerId: id, jsonToolName });
    },
  };
}
