import { responsesEventCharacters } from '../../core/generated-characters.js';
import { StreamTally } from '../../core/tally-stream.js';
import type { Forwarded, ForwardedFrame, PassThrough, PassThroughCall } from '../provider.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { holdPreamble, namedEvents, type NamedEvent } from '../upstream/named-events.js';
import { asRecord } from '../upstream/parse-json.js';
import { readSse, type SseEvent } from '../upstream/read-sse.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { openAIPath, type OpenAIPath } from './paths.js';
import { streamFailure } from './read-error.js';
import { readResponsesUsage } from './read-responses-usage.js';

/** Events that carry the whole response object; the gateway reads them to store the answer and its usage. */
const lifecycleEvents = new Set(['response.created', 'response.queued', 'response.in_progress', 'response.completed', 'response.incomplete', 'response.failed']);
/** Events before the answer begins: held back until it does (see upstream/named-events.ts). */
const preambleEvents = new Set(['response.created', 'response.queued', 'response.in_progress']);
const finalEvents = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Responses API client → Responses API upstream (`api: responses`). The body goes as the gateway hands it
 * over (the protocol handler has already resolved `previous_response_id` and dropped what the model cannot
 * take); the stream comes back frame by frame, parsed only where it carries the whole response.
 *
 * @example
 * const forwarded = await createResponsesPassThrough(client, 'openai').forward(body, context);
 */
export function createResponsesPassThrough(client: UpstreamClient, providerId: string, path: OpenAIPath = openAIPath): PassThrough {
  return {
    async forward(body: Record<string, unknown>, context: PassThroughCall): Promise<Forwarded> {
      const url = path('/responses', context.upstreamModel);
      const upstreamBody = { ...body, model: context.upstreamModel };
      // Both throw (before anything reaches the client) on a non-2xx answer, so the router can retry.
      if (!context.stream) {
        const json = await client.exchangeJson(url, upstreamBody, context.signal);
        return { kind: 'json', body: json, usage: readResponsesUsage(json) };
      }
      const reply = await client.postJson(url, upstreamBody, context.signal);
      const tally = new StreamTally();
      const frames = forwardEvents(readSse(client.chunks(reply, context.signal)), providerId, tally);
      return { kind: 'stream', frames, usage: () => tally.usage(), deliveredSinceUsage: () => tally.deliveredSinceUsage() };
    },
    async compact(body: Record<string, unknown>, context: PassThroughCall) {
      // https://platform.openai.com/docs/api-reference/responses/compact: a JSON answer, never a stream.
      const json = await client.exchangeJson(path('/responses/compact', context.upstreamModel), { ...body, model: context.upstreamModel }, context.signal);
      return { kind: 'json', body: json, usage: readResponsesUsage(json) };
    },
  };
}

/** The event as the upstream sent it, with its payload only where it carries the whole response (or is an `error`). */
function forwardedFrame({ type, data, payload }: NamedEvent): ForwardedFrame {
  return lifecycleEvents.has(type) || type === 'error' ? { event: type, data, payload } : { event: type, data };
}

/** OpenAI reports a refused call (quota, overload) as `error` + `response.failed` after its opening events. */
function refusal(event: NamedEvent, providerId: string): Error | undefined {
  if (event.type === 'error') return streamFailure(providerId, event.payload);
  if (event.type === 'response.failed') return streamFailure(providerId, { error: asRecord(event.payload.response)?.error });
  return undefined;
}

async function* forwardEvents(sse: AsyncIterable<SseEvent>, providerId: string, tally: StreamTally): AsyncGenerator<ForwardedFrame> {
  let failed = false;
  const events = holdPreamble(namedEvents(sse, providerId), preambleEvents, (event) => refusal(event, providerId));
  for await (const event of events) {
    if (event.type === 'error') failed = true;
    const characters = responsesEventCharacters(event.type, event.payload);
    yield forwardedFrame(event);
    // Counted once the consumer is back for more, i.e. has sent this event on (core/tally-stream.ts).
    tally.deliver(characters);
    if (finalEvents.has(event.type)) {
      // The usage comes whole with the final event, and no content follows it.
      const usage = readResponsesUsage(event.payload.response);
      if (usage) tally.report(usage);
      return;
    }
  }
  // The client has the upstream's own `error` event; a stream that just stops did not finish its answer.
  if (!failed) throw upstreamStreamEndedEarly(providerId);
}
