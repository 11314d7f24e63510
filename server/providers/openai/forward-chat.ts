import { chatChunkCharacters } from '../../core/generated-characters.js';
import { StreamTally } from '../../core/tally-stream.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import type { ResolvedQuirks } from '../openai-compatible/quirks.js';
import type { Forwarded, ForwardedFrame, PassThrough, PassThroughCall } from '../provider.js';
import { asRecord } from '../upstream/parse-json.js';
import { jsonEvent } from '../upstream/json-event.js';
import { readSse } from '../upstream/read-sse.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { readChatUsage } from './convert-stream.js';
import { isEmptyChunk } from './empty-chunk.js';
import { streamFailure } from './read-error.js';
import { openAIPath, type OpenAIPath } from './paths.js';
import type { ChatWireUsage } from './wire-types.js';

/**
 * Chat Completions client → Chat Completions upstream with the least rewriting: the model name and the
 * provider's quirks change, nothing else. The stream is piped frame by frame as it arrives, never
 * re-serialized; each frame is parsed only to read usage and errors and to stop a garbled one.
 *
 * @example
 * const forwarded = await createChatPassThrough(client, 'openai', quirks).forward(body, context);
 * if (forwarded.kind === 'stream') for await (const { data } of forwarded.frames) sse.send(data);
 */
export function createChatPassThrough(client: UpstreamClient, providerId: string, quirks: ResolvedQuirks, path: OpenAIPath = openAIPath): PassThrough {
  return {
    async forward(body: Record<string, unknown>, context: PassThroughCall): Promise<Forwarded> {
      const url = path('/chat/completions', context.upstreamModel);
      const upstreamBody = applyQuirks({ ...body, model: context.upstreamModel }, quirks);
      const { stream } = context;
      // Asked for by us so usage can be metered; the client sees the usage chunk only if it asked too.
      const clientWantsUsage = asRecord(body.stream_options)?.include_usage === true;
      if (stream && quirks.streamOptions) {
        upstreamBody.stream_options = { ...asRecord(body.stream_options), include_usage: true };
      }
      // Both throw (before anything reaches the client) on a non-2xx answer, so the router can retry.
      if (!stream) {
        const json = await client.exchangeJson(url, upstreamBody, context.signal);
        const usage = asRecord(json.usage);
        return { kind: 'json', body: json, usage: usage ? readChatUsage(usage as ChatWireUsage, json.service_tier) : undefined };
      }
      const reply = await client.postJson(url, upstreamBody, context.signal);

      const tally = new StreamTally();
      async function* frames(): AsyncGenerator<ForwardedFrame> {
        let first = true;
        for await (const { data } of readSse(client.chunks(reply, context.signal))) {
          // An event without data carries nothing, and the SDK would fail to parse it.
          if (data === '') continue;
          if (data.trim() === '[DONE]') {
            yield { data };
            return;
          }
          const chunk = jsonEvent(data, providerId);
          // Azure's opening prompt-filter chunk is not an OpenAI chunk; its per-choice verdicts still pass on.
          if (isEmptyChunk(chunk)) continue;
          const failed = chunk.error !== undefined && chunk.error !== null;
          // Nothing has reached the client yet (the handler prefetches the first frame): fail as an
          // upstream error the router can retry, instead of forwarding it.
          if (failed && first) throw streamFailure(providerId, chunk);
          first = false;
          const chunkUsage = asRecord(chunk.usage);
          const usageOnly = chunkUsage !== undefined && (!Array.isArray(chunk.choices) || chunk.choices.length === 0);
          if (!(usageOnly && !clientWantsUsage)) {
            const characters = chatChunkCharacters(chunk);
            yield { data };
            // Counted once the consumer is back for more, i.e. has sent this frame on (core/tally-stream.ts).
            tally.deliver(characters);
          }
          if (chunkUsage) tally.report(readChatUsage(chunkUsage as ChatWireUsage, chunk.service_tier));
          // The upstream reported its failure in-band and the client has it verbatim; nothing more will come.
          if (failed) return;
        }
        throw upstreamStreamEndedEarly(providerId);
      }
      return { kind: 'stream', frames: frames(), usage: () => tally.usage(), deliveredSinceUsage: () => tally.deliveredSinceUsage() };
    },
  };
}

/** The only rewrites a pass-through makes: what the server calls the token limit and the developer role. */
function applyQuirks(body: Record<string, unknown>, quirks: ResolvedQuirks): Record<string, unknown> {
  const other = quirks.maxTokensField === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
  if (body[other] !== undefined) {
    // The server's name for the one the client sent (a body with both is refused at the front door).
    body[quirks.maxTokensField] = body[other];
    delete body[other];
  }
  if (!quirks.streamOptions) delete body.stream_options;
  if (!quirks.developerRole && Array.isArray(body.messages)) {
    body.messages = body.messages.map((message: unknown) => {
      const record = asRecord(message);
      return record?.role === 'developer' ? { ...record, role: 'system' } : message;
    });
  }
  return body;
}
