import { randomString } from '../../core/random-string.js';
import type { StreamEvent } from '../../core/internal-representation.js';
import { asRecord } from '../upstream/parse-json.js';
import { jsonEvent } from '../upstream/json-event.js';
import type { SseEvent } from '../upstream/read-sse.js';
import { readWire, type WireSource } from '../upstream/read-wire.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { mapGeminiFinishReason } from './map-finish-reason.js';
import { geminiStreamFailure } from './read-error.js';
import { readGeminiUsage } from './read-usage.js';
import { geminiChunkSchema, type GeminiChunk, type GeminiResponsePart, type GeminiUsageMetadata } from './stream-schemas.js';

/**
 * Converts Gemini's `streamGenerateContent?alt=sse` events into gateway stream events
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
 *
 * Every event is a whole GenerateContentResponse holding only what is new, except `usageMetadata`, which
 * is cumulative. `finish` and `usage` therefore come once the stream has ended, from the last values seen.
 * A stream that ends without any finishReason was cut off and is an error, not a short answer; an event
 * that is not the shape of a GenerateContentResponse (stream-schemas.ts) is one too.
 *
 * @example
 * yield* convertGeminiStream(readSse(client.chunks(reply, signal)), 'google');
 */
export async function* convertGeminiStream(events: AsyncIterable<SseEvent>, providerId: string): AsyncGenerator<StreamEvent> {
  const source = { providerId, wire: 'gemini' };
  let started = false;
  let toolCalls = 0;
  let finishReason: string | undefined;
  let blocked = false;
  let usage: GeminiUsageMetadata | undefined;

  for await (const event of events) {
    if (event.data.trim() === '') continue;
    const chunk = readChunk(event.data, source);
    if (!started) {
      started = true;
      yield typeof chunk.responseId === 'string' ? { type: 'start', id: chunk.responseId } : { type: 'start' };
    }
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
    // We never ask for more than one candidate.
    const candidate = chunk.candidates?.[0];
    if (!candidate && typeof chunk.promptFeedback?.blockReason === 'string') blocked = true;
    for (const part of candidate?.content?.parts ?? []) {
      for (const converted of convertPart(part, toolCalls)) {
        if (converted.type === 'tool_call_end') toolCalls += 1;
        yield converted;
      }
    }
    if (typeof candidate?.finishReason === 'string') finishReason = candidate.finishReason;
  }

  if (finishReason === undefined && !blocked) {
    throw upstreamStreamEndedEarly(providerId);
  }
  yield { type: 'finish', reason: finishReason === undefined ? 'content_filter' : mapGeminiFinishReason(finishReason, toolCalls > 0) };
  if (usage) yield { type: 'usage', usage: readGeminiUsage(usage) };
}

/** Reads one event; an `error` chunk (Gemini's way to fail after the 200) is thrown like an HTTP error. */
function readChunk(data: string, source: WireSource): GeminiChunk {
  const chunk = jsonEvent(data, source.providerId);
  if (asRecord(chunk.error)) throw geminiStreamFailure(source.providerId, chunk);
  return readWire(geminiChunkSchema, chunk, source, 'GenerateContentResponse');
}

/**
 * One response part as events. Gemini sends each function call whole, so a call is start, one delta with
 * all its arguments, and end. A thoughtSignature on a plain text part is dropped: Google documents those
 * as optional to send back, unlike the ones on functionCall parts. Image output (`inlineData`) is not
 * carried yet, nor are code-execution parts.
 */
function convertPart(part: GeminiResponsePart, index: number): StreamEvent[] {
  const call = part.functionCall;
  if (call) {
    const signature = signatureOf(part);
    return [
      {
        type: 'tool_call_start',
        index,
        id: call.id || `call_${randomString(12)}`,
        name: call.name,
        ...(signature && { signature }),
      },
      { type: 'tool_call_delta', index, argumentsDelta: JSON.stringify(call.args ?? {}) },
      { type: 'tool_call_end', index },
    ];
  }
  if (typeof part.text !== 'string') return [];
  if (part.thought === true) {
    const signature = signatureOf(part);
    if (part.text === '' && !signature) return [];
    return [{ type: 'reasoning_delta', text: part.text, ...(signature && { signature }) }];
  }
  return part.text === '' ? [] : [{ type: 'text_delta', text: part.text }];
}

function signatureOf(part: GeminiResponsePart): string | undefined {
  return typeof part.thoughtSignature === 'string' && part.thoughtSignature !== '' ? part.thoughtSignature : undefined;
}
