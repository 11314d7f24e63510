import type { ForwardedMessageEvent, ForwardedMessages, MessagesCallContext, MessagesPassThrough } from '../provider.js';
import { asRecord, parseJson } from '../upstream/parse-json.js';
import { readSse, type SseEvent } from '../upstream/read-sse.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { anthropicStreamError } from './read-error.js';
import { emptyUsageTally, readAnthropicUsage, toGatewayUsage, type AnthropicUsageTally } from './read-usage.js';
import type { AnthropicUsage } from './wire-types.js';

/** Events before the answer begins: held back until it does (see forwardEvents). */
const preambleEvents = new Set(['message_start', 'ping']);
/** Anthropic puts `type` first in every event; used only when the upstream sent no `event:` line. */
const leadingType = /"type"\s*:\s*"([^"]+)"/;

/**
 * Anthropic Messages client → Anthropic Messages upstream with the least rewriting: the model name, our
 * key instead of the client's, and the client's `anthropic-beta` sent on; the body is otherwise the
 * client's, unknown fields and all. A stream comes back frame by frame as it arrives, never
 * re-serialized; only the frames that carry usage (`message_start`, `message_delta`) or an `error` are
 * parsed.
 *
 * @example
 * const forwarded = await createMessagesPassThrough(client, 'anthropic').forward(body, { upstreamModel, signal, anthropicBeta });
 * if (forwarded.kind === 'stream') for await (const { type, data } of forwarded.events) await sse.send(data, type);
 */
export function createMessagesPassThrough(client: UpstreamClient, providerId: string): MessagesPassThrough {
  return {
    async forward(body: Record<string, unknown>, context: MessagesCallContext): Promise<ForwardedMessages> {
      const headers = context.anthropicBeta ? { 'anthropic-beta': context.anthropicBeta } : undefined;
      // Throws (before anything reaches the client) on a non-2xx answer, so the router can retry.
      const reply = await client.postJson('/v1/messages', { ...body, model: context.upstreamModel }, context.signal, headers);
      const tally = emptyUsageTally();
      if (body.stream !== true) {
        const json = await client.readJson(reply, context.signal);
        readAnthropicUsage(tally, asRecord(json.usage) as AnthropicUsage | undefined);
        return { kind: 'json', body: json, usage: toGatewayUsage(tally) };
      }
      let seenUsage = false;
      const events = forwardEvents(readSse(client.chunks(reply, context.signal)), providerId, (usage) => {
        readAnthropicUsage(tally, usage);
        seenUsage = true;
      });
      return { kind: 'stream', events, usage: () => (seenUsage ? toGatewayUsage(tally) : undefined) };
    },
  };
}

/**
 * Anthropic opens every stream with `message_start` (and often `ping`) and only then may report that it
 * is overloaded, as an `error` event. Holding the opening events back until the answer really begins
 * lets such a failure be thrown while the client has seen nothing, so the router can still retry or fall
 * back. Once content flows, an `error` goes to the client as Anthropic wrote it and ends the stream.
 */
async function* forwardEvents(
  sse: AsyncIterable<SseEvent>,
  providerId: string,
  onUsage: (usage: AnthropicUsage | undefined) => void,
): AsyncGenerator<ForwardedMessageEvent> {
  const held: ForwardedMessageEvent[] = [];
  let answering = false;
  for await (const { event, data } of sse) {
    // An event without data carries nothing, and the SDK would fail to parse it.
    if (data === '') continue;
    const type = event ?? leadingType.exec(data)?.[1] ?? 'unknown';
    const payload = type === 'message_start' || type === 'message_delta' || type === 'error' ? asRecord(parseJson(data)) : undefined;
    if (type === 'message_start') onUsage(asRecord(payload?.message)?.usage as AnthropicUsage | undefined);
    if (type === 'message_delta') onUsage(payload?.usage as AnthropicUsage | undefined);
    if (!answering) {
      if (type === 'error') throw anthropicStreamError(payload, providerId);
      if (preambleEvents.has(type)) {
        held.push({ type, data });
        continue;
      }
      answering = true;
      yield* held.splice(0);
    }
    yield { type, data };
    // After an error Anthropic sends nothing more; the client has the upstream's own words.
    if (type === 'message_stop' || type === 'error') return;
  }
  throw upstreamStreamEndedEarly(providerId);
}
