import { randomString } from '../../core/random-string.js';
import type { StreamEvent, Usage } from '../../core/internal-representation.js';
import { upstreamStreamEndedEarly } from '../upstream/upstream-error.js';
import { jsonEvent } from '../upstream/json-event.js';
import type { SseEvent } from '../upstream/read-sse.js';
import { readWire } from '../upstream/read-wire.js';
import { isEmptyChunk } from './empty-chunk.js';
import { mapOpenAIFinishReason } from './map-finish-reason.js';
import { streamFailure } from './read-error.js';
import { chatChunkSchema, type ChatDelta, type ChatWireUsage } from './stream-schemas.js';

/**
 * Chat Completions chunks → internal stream events.
 * https://platform.openai.com/docs/api-reference/chat-streaming
 *
 * Only the first choice is read (we never ask for `n > 1`). Usage may come in its own `choices: []`
 * chunk, in the finishing chunk, or not at all (servers without `stream_options`); it is always emitted
 * after `finish`. A stream that ends before any `finish_reason` was cut off and throws, so nobody
 * mistakes half an answer for a whole one; so does a chunk that is not the shape of one (stream-schemas.ts).
 */
export async function* convertStream(events: AsyncIterable<SseEvent>, providerId: string): AsyncGenerator<StreamEvent> {
  const source = { providerId, wire: 'openai' };
  let started = false;
  let finished = false;
  let pendingUsage: Usage | undefined;
  /** Upstream tool-call index → ours (0, 1, … in order of appearance). */
  const toolCalls = new Map<number, number>();

  for await (const { data } of events) {
    if (data.trim() === '[DONE]') break;
    if (data.trim() === '') continue;
    const record = jsonEvent(data, providerId);
    if (record.error !== undefined && record.error !== null) throw streamFailure(providerId, record);
    // Azure's opening chunk (`id: ""`): the answer, and its id, start with the next one.
    if (isEmptyChunk(record)) continue;
    const chunk = readWire(chatChunkSchema, record, source, 'chunk');

    if (!started) {
      started = true;
      yield typeof chunk.id === 'string' ? { type: 'start', id: chunk.id } : { type: 'start' };
    }

    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (choice?.delta) yield* convertDelta(choice.delta, toolCalls);
    const finishReason = finished ? undefined : nonEmpty(choice?.finish_reason);
    const finishing = finishReason !== undefined;
    if (finishing) {
      finished = true;
      for (const index of toolCalls.values()) yield { type: 'tool_call_end', index };
      yield { type: 'finish', reason: mapOpenAIFinishReason(finishReason) };
    }

    // Usage that comes before the finish (some servers repeat it on every chunk) waits for it.
    const usage = chunk.usage ?? chunk.x_groq?.usage;
    if (usage) pendingUsage = readChatUsage(usage, chunk.service_tier);
    if (finished && pendingUsage && (usage || finishing)) yield { type: 'usage', usage: pendingUsage };
  }

  if (!finished) {
    throw upstreamStreamEndedEarly(providerId);
  }
}

function* convertDelta(delta: ChatDelta, toolCalls: Map<number, number>): Generator<StreamEvent> {
  // DeepSeek and older vLLM say `reasoning_content`, OpenRouter, Ollama and newer vLLM `reasoning`; a
  // server that sends both means the same text, so one is read.
  const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
  if (reasoning) yield { type: 'reasoning_delta', text: reasoning };
  // Text, or (rarely) Mistral's parts: a nested generator per chunk would cost more than the chunk's parse.
  if (typeof delta.content === 'string') {
    if (delta.content !== '') yield { type: 'text_delta', text: delta.content };
  } else if (delta.content) {
    yield* convertContentParts(delta.content);
  }
  // A refusal is the model's answer in words; we have no refusal part, so the client sees it as text.
  const refusal = nonEmpty(delta.refusal);
  if (refusal) yield { type: 'text_delta', text: refusal };

  if (!delta.tool_calls) return;
  for (const [position, { index: upstreamIndex, id, function: fn }] of delta.tool_calls.entries()) {
    // `index` is required by OpenAI; a server that sends whole calls without it numbers them by position.
    const key = typeof upstreamIndex === 'number' ? upstreamIndex : position;
    let index = toolCalls.get(key);
    if (index === undefined) {
      index = toolCalls.size;
      toolCalls.set(key, index);
      yield { type: 'tool_call_start', index, id: nonEmpty(id) ?? newCallId(), name: fn?.name ?? '' };
    }
    const argumentsDelta = nonEmpty(fn?.arguments);
    if (argumentsDelta) yield { type: 'tool_call_delta', index, argumentsDelta };
  }
}

/** Mistral's `content` parts: text parts are text, thinking parts reasoning. */
function* convertContentParts(content: Exclude<ChatDelta['content'], string | null | undefined>): Generator<StreamEvent> {
  for (const part of content) {
    if (part.type === 'text' && part.text !== '') yield { type: 'text_delta', text: part.text };
    if (part.type !== 'thinking') continue;
    const thinking = part.thinking.map((inner) => (inner.type === 'text' ? inner.text : '')).join('');
    if (thinking !== '') yield { type: 'reasoning_delta', text: thinking };
  }
}

/**
 * Chat Completions usage → ours, with the `service_tier` of the chunk or answer that carried it (what OpenAI
 * bills). Shared with the pass-through, which reads usage from the same chunks without checking them first:
 * counts that are not numbers read as 0, a tier that is not a string as none.
 */
export function readChatUsage(usage: ChatWireUsage, serviceTier?: unknown): Usage {
  const audioInput = count(usage.prompt_tokens_details?.audio_tokens);
  const audioOutput = count(usage.completion_tokens_details?.audio_tokens);
  return {
    inputTokens: count(usage.prompt_tokens),
    cachedInputTokens: count(usage.prompt_tokens_details?.cached_tokens),
    outputTokens: count(usage.completion_tokens),
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens),
    ...(audioInput > 0 && { audioInputTokens: audioInput }),
    ...(audioOutput > 0 && { audioOutputTokens: audioOutput }),
    ...(typeof serviceTier === 'string' && serviceTier !== '' && { serviceTier }),
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Some compatible servers (older Ollama and llama.cpp builds) send calls without an ID; results need one. */
function newCallId(): string {
  return `call_${randomString(12)}`;
}
