import { jsonEvent } from './json-event.js';
import type { SseEvent } from './read-sse.js';

/** One upstream event of a stream whose events are named (Anthropic Messages, OpenAI Responses). */
export interface NamedEvent {
  type: string;
  /** The `data:` payload as the upstream sent it. */
  data: string;
  /** The same, parsed. */
  payload: Record<string, unknown>;
}

/**
 * The events with their names (from the `event:` line, else the payload's `type`), leaving out events
 * without data (they carry nothing, and SDKs fail to parse them). An event that is not JSON is thrown.
 */
export async function* namedEvents(sse: AsyncIterable<SseEvent>, providerId: string): AsyncGenerator<NamedEvent> {
  for await (const { event, data } of sse) {
    if (data === '') continue;
    const payload = jsonEvent(data, providerId);
    yield { type: event ?? (typeof payload.type === 'string' ? payload.type : 'unknown'), data, payload };
  }
}

/**
 * Anthropic and OpenAI open every stream with bookkeeping events (`message_start`, `response.created`…)
 * and only then may report that they refuse the call (overload, quota) in-band. Holding the opening
 * events back until the answer really begins lets such a refusal be thrown while the client has seen
 * nothing, so the router can still retry or fall back. Once the answer has begun, every event passes.
 *
 * @param refusal the error to throw for an event that refuses the call before the answer began, if it does
 */
export async function* holdPreamble<T extends Pick<NamedEvent, 'type'>>(
  events: AsyncIterable<T>,
  preamble: ReadonlySet<string>,
  refusal: (event: T) => Error | undefined,
): AsyncGenerator<T> {
  const held: T[] = [];
  let answering = false;
  for await (const event of events) {
    if (!answering) {
      const refused = refusal(event);
      if (refused) throw refused;
      if (preamble.has(event.type)) {
        held.push(event);
        continue;
      }
      answering = true;
      yield* held.splice(0);
    }
    yield event;
  }
  // A stream that ended in its opening events gave no answer: nothing goes out, and the caller's own
  // end-of-stream check fails it while the router can still retry.
}
