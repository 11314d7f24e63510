import type { StreamEvent } from './internal-representation.js';

/*
 * How many characters of generated content (text, reasoning, tool-call arguments) one streamed event
 * carries, in the internal representation and in each wire format a stream is passed through in. Metering
 * counts what a stream cut short had sent or read (metering/abandoned-usage.ts); ids, roles, finish
 * reasons and the JSON around the content are framing, not output, and are not counted. Each reads an
 * event that is already an object: nothing is parsed for this.
 */

/** A translated stream's event (every protocol's translated answers). */
export function streamEventCharacters(event: StreamEvent): number {
  switch (event.type) {
    case 'text_delta':
    case 'reasoning_delta':
      return event.text.length;
    case 'tool_call_delta':
      return event.argumentsDelta.length;
    default:
      return 0;
  }
}

/** A Chat Completions chunk as an upstream sent it. */
export function chatChunkCharacters(chunk: Record<string, unknown>): number {
  let characters = 0;
  if (!Array.isArray(chunk.choices)) return 0;
  for (const choice of chunk.choices as Array<{ delta?: Record<string, unknown> } | null>) {
    const delta = choice?.delta;
    if (!delta || typeof delta !== 'object') continue;
    characters += lengthOf(delta.content) + lengthOf(delta.reasoning_content) + lengthOf(delta.reasoning) + lengthOf(delta.refusal);
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls as Array<{ function?: { arguments?: unknown } } | null>) characters += lengthOf(call?.function?.arguments);
    }
  }
  return characters;
}

/** An Anthropic Messages stream event's payload. */
export function messagesEventCharacters(payload: Record<string, unknown>): number {
  if (payload.type !== 'content_block_delta') return 0;
  const delta = payload.delta as Record<string, unknown> | undefined;
  return delta ? lengthOf(delta.text) + lengthOf(delta.thinking) + lengthOf(delta.partial_json) : 0;
}

/** A Gemini GenerateContentResponse chunk. */
export function geminiChunkCharacters(chunk: Record<string, unknown>): number {
  let characters = 0;
  if (!Array.isArray(chunk.candidates)) return 0;
  for (const candidate of chunk.candidates as Array<{ content?: { parts?: unknown } } | null>) {
    const parts = candidate?.content?.parts;
    if (!Array.isArray(parts)) continue;
    for (const part of parts as Array<{ text?: unknown; functionCall?: { args?: unknown } } | null>) {
      characters += lengthOf(part?.text);
      // Gemini sends a call's arguments whole, as an object; their JSON text is what the model generated.
      if (part?.functionCall?.args !== undefined) characters += JSON.stringify(part.functionCall.args).length;
    }
  }
  return characters;
}

/** The Responses API events whose `delta` is generated content. */
const responsesContentDeltas = new Set([
  'response.output_text.delta',
  'response.refusal.delta',
  'response.reasoning_text.delta',
  'response.reasoning_summary_text.delta',
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
]);

/** A Responses API stream event's payload, named by its type. */
export function responsesEventCharacters(type: string, payload: Record<string, unknown>): number {
  return responsesContentDeltas.has(type) ? lengthOf(payload.delta) : 0;
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}
