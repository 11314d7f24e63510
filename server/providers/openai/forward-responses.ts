import type { CallContext, ForwardedResponseEvent, ForwardedResponses, ResponsesPassThrough } from '../provider.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { asRecord, parseJson } from '../upstream/parse-json.js';
import { readSse, type SseEvent } from '../upstream/read-sse.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { streamFailure } from './read-error.js';

/** Events that carry the whole response object; the gateway reads them to store the answer and its usage. */
const lifecycleEvents = new Set(['response.created', 'response.queued', 'response.in_progress', 'response.completed', 'response.incomplete', 'response.failed']);
/** Events before the answer begins: held back until it does (see forwardEvents). */
const preambleEvents = new Set(['response.created', 'response.queued', 'response.in_progress']);
const finalEvents = new Set(['response.completed', 'response.incomplete', 'response.failed']);
/** OpenAI puts `type` first in every event; used only when the upstream sent no `event:` line. */
const leadingType = /"type"\s*:\s*"([^"]+)"/;

/**
 * Responses API client → Responses API upstream (`api: responses`). The body goes as the gateway hands it
 * over (the protocol handler has already resolved `previous_response_id` and dropped what the model cannot
 * take); the stream comes back frame by frame, parsed only where it carries the whole response.
 *
 * @example
 * const forwarded = await createResponsesPassThrough(client, 'openai').forward(body, context);
 */
export function createResponsesPassThrough(client: UpstreamClient, providerId: string): ResponsesPassThrough {
  return {
    async forward(body: Record<string, unknown>, context: CallContext): Promise<ForwardedResponses> {
      // Throws (before anything reaches the client) on a non-2xx answer, so the router can retry.
      const reply = await client.postJson('/responses', { ...body, model: context.upstreamModel }, context.signal);
      if (body.stream !== true) return { kind: 'json', body: await client.readJson(reply, context.signal) };
      return { kind: 'stream', events: forwardEvents(readSse(client.chunks(reply, context.signal)), providerId) };
    },
  };
}

/**
 * OpenAI opens every stream with `response.created` and `response.in_progress`, and only then reports a
 * refused call (quota, overload) as `error` + `response.failed`. Holding the opening events back until the
 * answer really begins lets such a failure be thrown while the client has seen nothing, so the router can
 * still retry or fall back.
 */
async function* forwardEvents(sse: AsyncIterable<SseEvent>, providerId: string): AsyncGenerator<ForwardedResponseEvent> {
  const held: ForwardedResponseEvent[] = [];
  let answering = false;
  let failed = false;
  for await (const { event, data } of sse) {
    // An event without data carries nothing, and the SDK would fail to parse it.
    if (data === '') continue;
    const type = event ?? leadingType.exec(data)?.[1] ?? 'unknown';
    const payload = lifecycleEvents.has(type) || type === 'error' ? asRecord(parseJson(data)) : undefined;
    const forwarded: ForwardedResponseEvent = payload ? { type, data, payload } : { type, data };
    if (!answering) {
      if (type === 'error') throw streamFailure(providerId, payload ?? {});
      if (type === 'response.failed') throw streamFailure(providerId, { error: asRecord(payload?.response)?.error });
      if (preambleEvents.has(type)) {
        held.push(forwarded);
        continue;
      }
      answering = true;
      yield* held.splice(0);
    }
    if (type === 'error') failed = true;
    yield forwarded;
    if (finalEvents.has(type)) return;
  }
  // The client has the upstream's own `error` event; a stream that just stops did not finish its answer.
  if (!failed) throw upstreamStreamEndedEarly(providerId);
}
