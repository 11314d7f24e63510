import { messagesEventCharacters } from '../../core/generated-characters.js';
import { StreamTally } from '../../core/tally-stream.js';
import type { Forwarded, ForwardedFrame, PassThrough, PassThroughCall } from '../provider.js';
import { holdPreamble, namedEvents, type NamedEvent } from '../upstream/named-events.js';
import { asRecord } from '../upstream/parse-json.js';
import { readSse, type SseEvent } from '../upstream/read-sse.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { anthropicStreamError } from './read-error.js';
import { emptyUsageTally, readAnthropicUsage, toGatewayUsage, type AnthropicUsageTally } from './read-usage.js';
import type { AnthropicUsage } from './wire-types.js';

/** Events before the answer begins: held back until it does (see upstream/named-events.ts). */
const preambleEvents = new Set(['message_start', 'ping']);

/** Where a Messages body goes and how it names the model: Anthropic's API, or another host's (Vertex AI). */
export interface MessagesRoute {
  path(upstreamModel: string, stream: boolean): string;
  body(body: Record<string, unknown>, upstreamModel: string): Record<string, unknown>;
}

const anthropicApiRoute: MessagesRoute = {
  path: () => '/v1/messages',
  body: (body, upstreamModel) => ({ ...body, model: upstreamModel }),
};

/**
 * Anthropic Messages client → Anthropic Messages upstream with the least rewriting: the model name, our
 * key instead of the client's, and the client's `anthropic-beta` sent on; the body is otherwise the
 * client's, unknown fields and all. A stream comes back frame by frame as it arrives, never
 * re-serialized; only the frames that carry usage (`message_start`, `message_delta`) or an `error` are
 * parsed.
 *
 * @example
 * const forwarded = await createMessagesPassThrough(client, 'anthropic').forward(body, { upstreamModel, signal, stream: true, headers });
 * if (forwarded.kind === 'stream') for await (const { event, data } of forwarded.frames) await sse.send(data, event);
 */
export function createMessagesPassThrough(client: UpstreamClient, providerId: string, route: MessagesRoute = anthropicApiRoute): PassThrough {
  return {
    async forward(body: Record<string, unknown>, context: PassThroughCall): Promise<Forwarded> {
      const { headers } = context;
      const upstreamBody = route.body(body, context.upstreamModel);
      const path = route.path(context.upstreamModel, context.stream);
      const tally = emptyUsageTally();
      // Both throw (before anything reaches the client) on a non-2xx answer, so the router can retry.
      if (!context.stream) {
        const json = await client.exchangeJson(path, upstreamBody, context.signal, headers);
        readAnthropicUsage(tally, asRecord(json.usage) as AnthropicUsage | undefined);
        return { kind: 'json', body: json, usage: toGatewayUsage(tally) };
      }
      const reply = await client.postJson(path, upstreamBody, context.signal, headers);
      const streamed = new StreamTally();
      const frames = forwardEvents(readSse(client.chunks(reply, context.signal)), providerId, {
        // Anthropic reports in parts (the prompt at the start, the output at the end): the tally adds them up.
        onUsage: (usage) => {
          readAnthropicUsage(tally, usage);
          streamed.report(toGatewayUsage(tally));
        },
        onDelivered: (characters) => streamed.deliver(characters),
      });
      return { kind: 'stream', frames, usage: () => streamed.usage(), deliveredSinceUsage: () => streamed.deliveredSinceUsage() };
    },
  };
}

/**
 * Anthropic may report overload as an `error` event after `message_start` (see holdPreamble). Once content
 * flows, an `error` goes to the client as Anthropic wrote it and ends the stream.
 */
async function* forwardEvents(
  sse: AsyncIterable<SseEvent>,
  providerId: string,
  tally: { onUsage(usage: AnthropicUsage | undefined): void; onDelivered(characters: number): void },
): AsyncGenerator<ForwardedFrame> {
  const refusal = ({ type, payload }: NamedEvent) => (type === 'error' ? anthropicStreamError(payload, providerId) : undefined);
  for await (const event of holdPreamble(withUsageRead(namedEvents(sse, providerId), tally.onUsage), preambleEvents, refusal)) {
    const characters = messagesEventCharacters(event.payload);
    yield { event: event.type, data: event.data };
    // Counted once the consumer is back for more, i.e. has sent this event on (core/tally-stream.ts).
    tally.onDelivered(characters);
    // After an error Anthropic sends nothing more; the client has the upstream's own words.
    if (event.type === 'message_stop' || event.type === 'error') return;
  }
  throw upstreamStreamEndedEarly(providerId);
}

/** Reads usage from the only events that carry it, as they arrive (held ones included). */
async function* withUsageRead(events: AsyncIterable<NamedEvent>, onUsage: (usage: AnthropicUsage | undefined) => void): AsyncGenerator<NamedEvent> {
  for await (const event of events) {
    if (event.type === 'message_start') onUsage(asRecord(event.payload.message)?.usage as AnthropicUsage | undefined);
    if (event.type === 'message_delta') onUsage(event.payload.usage as AnthropicUsage | undefined);
    yield event;
  }
}
