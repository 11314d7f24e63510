import { geminiChunkCharacters } from '../../core/generated-characters.js';
import { StreamTally } from '../../core/tally-stream.js';
import type { Forwarded, ForwardedFrame, PassThrough, PassThroughCall } from '../provider.js';
import { asRecord } from '../upstream/parse-json.js';
import { jsonEvent } from '../upstream/json-event.js';
import { readSse } from '../upstream/read-sse.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { geminiStreamFailure } from './read-error.js';
import { readGeminiUsage } from './read-usage.js';
import type { GeminiUsageMetadata } from './wire-types.js';

/** The upstream path of a Gemini method for a model name as Gemini knows it (without `models/`). */
export function geminiModelPath(upstreamModel: string, method: 'generateContent' | 'streamGenerateContent' | 'countTokens'): string {
  const path = `/v1beta/models/${encodeURIComponent(upstreamModel)}:${method}`;
  return method === 'streamGenerateContent' ? `${path}?alt=sse` : path;
}

/** Where a Gemini body goes and how it names the model: the Gemini API's, or another host's (Vertex AI). */
export interface GeminiRoute {
  path(upstreamModel: string, method: 'generateContent' | 'streamGenerateContent'): string;
  body(body: Record<string, unknown>, upstreamModel: string): Record<string, unknown>;
}

/** The Gemini API: the model in the path, and in the body only if the client named it there. */
const geminiApiRoute: GeminiRoute = {
  path: geminiModelPath,
  body: (body, upstreamModel) => (body.model === undefined ? body : { ...body, model: `models/${upstreamModel}` }),
};

/**
 * Gemini client → Gemini upstream with the least rewriting: the model in the path (and in the body, if the
 * client named it there) and the key change, nothing else; unknown fields go along. A stream is piped
 * frame by frame as it arrives, never re-serialized; frames are parsed only to read usage, the finish and
 * an in-band error.
 *
 * @example
 * const forwarded = await createGeminiPassThrough(client, 'google').forward(body, { upstreamModel, signal, stream: true });
 * if (forwarded.kind === 'stream') for await (const { data } of forwarded.frames) sse.send(data);
 */
export function createGeminiPassThrough(client: UpstreamClient, providerId: string, route: GeminiRoute = geminiApiRoute): PassThrough {
  return {
    async forward(body: Record<string, unknown>, context: PassThroughCall): Promise<Forwarded> {
      const upstreamBody = route.body(body, context.upstreamModel);
      const path = route.path(context.upstreamModel, context.stream ? 'streamGenerateContent' : 'generateContent');
      // Both throw (before anything reaches the client) on a non-2xx answer, so the router can retry.
      if (!context.stream) {
        const json = await client.exchangeJson(path, upstreamBody, context.signal);
        const usage = asRecord(json.usageMetadata);
        return { kind: 'json', body: json, usage: usage ? readGeminiUsage(usage as GeminiUsageMetadata) : undefined };
      }
      const reply = await client.postJson(path, upstreamBody, context.signal);
      const tally = new StreamTally();
      return {
        kind: 'stream',
        frames: forwardFrames(readSse(client.chunks(reply, context.signal)), providerId, tally),
        usage: () => tally.usage(),
        deliveredSinceUsage: () => tally.deliveredSinceUsage(),
      };
    },
  };
}

/**
 * Every event is a whole GenerateContentResponse. An `error` chunk before anything was forwarded is thrown
 * so the router can still retry; after that it goes to the client as the upstream wrote it. A stream that
 * ends without a `finishReason` (or a blocked prompt's `promptFeedback`) was cut off, and is an error.
 */
async function* forwardFrames(
  events: AsyncIterable<{ data: string }>,
  providerId: string,
  tally: StreamTally,
): AsyncGenerator<ForwardedFrame> {
  let first = true;
  let finished = false;
  for await (const { data } of events) {
    if (data.trim() === '') continue;
    const chunk = jsonEvent(data, providerId);
    if (asRecord(chunk.error)) {
      if (first) throw geminiStreamFailure(providerId, chunk);
      yield { data };
      return;
    }
    first = false;
    const usage = asRecord(chunk.usageMetadata);
    const candidate = Array.isArray(chunk.candidates) ? asRecord(chunk.candidates[0]) : undefined;
    if (typeof candidate?.finishReason === 'string' || asRecord(chunk.promptFeedback)?.blockReason !== undefined) finished = true;
    const characters = geminiChunkCharacters(chunk);
    yield { data };
    // Counted once the consumer is back for more, i.e. has sent this frame on; the chunk's usage covers
    // its own content, so it is taken after (core/tally-stream.ts).
    tally.deliver(characters);
    // A chunk's usage counts the output so far only when it says so (`candidatesTokenCount`) or ends the
    // answer; one that gives only the prompt must not make what was sent look free.
    if (usage && (usage.candidatesTokenCount !== undefined || finished)) tally.report(readGeminiUsage(usage as GeminiUsageMetadata));
  }
  if (!finished) throw upstreamStreamEndedEarly(providerId);
}
