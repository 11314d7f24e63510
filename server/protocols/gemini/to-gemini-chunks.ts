import type { FinishReason, StreamEvent, ToolCallPart, Usage } from '../../core/internal-representation.js';
import { mapFinishReasonToGemini } from './map-finish-reason.js';
import { renderPart, renderUsageMetadata, type GeminiAnswerIds } from './render-generate-response.js';
import type { GeminiCandidate, GeminiGenerateContentResponse, GeminiPart } from './wire-types.js';
import { assertNever } from '../../core/assert-never.js';

/**
 * Internal stream events → streamGenerateContent chunks, each a whole GenerateContentResponse holding only
 * its delta (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent). Every chunk
 * has a `model` content with at least one part, as the SDKs expect. Gemini sends each function call whole,
 * so a call's argument deltas are held until it ends. The finish reason and the usage come last, on a
 * chunk of its own with an empty text part, as Gemini itself ends its streams.
 */
export async function* toGeminiChunks(events: AsyncIterable<StreamEvent>, ids: GeminiAnswerIds): AsyncGenerator<GeminiGenerateContentResponse> {
  const calls = new Map<number, ToolCallPart>();
  let usage: Usage | undefined;
  let finish: FinishReason = 'stop';
  const chunk = (parts: GeminiPart[], candidate: Partial<GeminiCandidate> = {}): GeminiGenerateContentResponse => ({
    candidates: [{ content: { role: 'model', parts }, ...candidate, index: 0 }],
    ...(usage && { usageMetadata: renderUsageMetadata(usage) }),
    modelVersion: ids.model,
    responseId: ids.responseId,
  });

  for await (const event of events) {
    switch (event.type) {
      case 'start':
        break;
      case 'text_delta':
        if (event.text !== '') yield chunk([{ text: event.text }]);
        break;
      case 'reasoning_delta': {
        const { text, signature, redacted } = event;
        if (text !== '' || signature || redacted) yield chunk([renderPart({ type: 'reasoning', text, signature, redacted })]);
        break;
      }
      case 'tool_call_start':
        calls.set(event.index, { type: 'tool_call', id: event.id, name: event.name, arguments: '', ...(event.signature && { signature: event.signature }) });
        break;
      case 'tool_call_delta': {
        const call = calls.get(event.index);
        if (call) call.arguments += event.argumentsDelta;
        break;
      }
      case 'tool_call_end': {
        const call = calls.get(event.index);
        calls.delete(event.index);
        if (call) yield chunk([renderPart(call)]);
        break;
      }
      case 'finish':
        finish = event.reason;
        break;
      case 'usage':
        usage = event.usage;
        break;
      default:
        assertNever(event);
    }
  }
  // Calls the upstream never closed still happened; they go out with the finish.
  const unfinished = [...calls.values()].map(renderPart);
  yield chunk(unfinished.length > 0 ? unfinished : [{ text: '' }], { finishReason: mapFinishReasonToGemini(finish) });
}
