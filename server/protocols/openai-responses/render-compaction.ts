import type { SuccessBody } from '../../../generated/operations.js';
import { collectStream } from '../../core/collect-stream.js';
import type { ModelResponse, StreamEvent } from '../../core/internal-representation.js';
import type { AnswerRenderer } from '../../core/model-call.js';
import type { StreamFrame } from '../../core/stream-frame.js';
import { summaryText } from './compaction-request.js';
import type { CompactionSeal } from './compaction-seal.js';
import { renderFailedResponse, renderResponsesUsage, responseSnapshot, type ResponseEcho, type ResponsesOutputItem, type ResponsesResponse } from './render-response.js';
import { errorEvent, responseErrorFields } from './response-error-event.js';
import { newPrefixedId } from './response-ids.js';
import type { SaveResponse } from './save-response.js';
import type { ResponsesStreamEvent } from './to-response-events.js';

/** A `compaction` output item holding `summary`, sealed for `account` (compaction-seal.ts). */
export function sealedCompactionItem(summary: string, seal: CompactionSeal, account: string): Extract<ResponsesOutputItem, { type: 'compaction' }> {
  return { type: 'compaction', id: newPrefixedId('cmp'), encrypted_content: seal.seal(summary, account), created_by: 'gateway' };
}

/**
 * Renders the answer to a `compaction_trigger` request on an upstream without compaction of its own: the
 * model's summary, sealed, as the response's one output item, as OpenAI answers it (Codex requires
 * exactly one `compaction` item and `response.completed`). The stream opens at once (`response.created`,
 * `response.in_progress`) but the item can only be sealed once the summary is whole, so its `added` and
 * `done` events follow the upstream's last event; its text is never streamed, as it is opaque to clients.
 */
export function compactionResponseRenderer(
  echo: ResponseEcho,
  ids: { id: string; createdAt: number },
  sealFor: (summary: string) => Extract<ResponsesOutputItem, { type: 'compaction' }>,
  save: SaveResponse,
): AnswerRenderer<ModelResponse, StreamEvent, SuccessBody<'createResponse'>, ResponsesStreamEvent> {
  const finished = (answer: ModelResponse): ResponsesResponse => ({
    ...responseSnapshot(echo, ids, 'completed'),
    completed_at: Math.floor(Date.now() / 1000),
    output: [sealFor(summaryText(answer.content))],
    usage: renderResponsesUsage(answer.usage),
  });
  return {
    async json(answer) {
      const response = finished(answer);
      await save(response, null);
      return response;
    },
    stream(events) {
      async function* frames(): AsyncGenerator<StreamFrame<ResponsesStreamEvent>> {
        let sequence = 0;
        const frame = (event: Record<string, unknown>): StreamFrame<ResponsesStreamEvent> => {
          const data = { ...event, sequence_number: sequence++ } as ResponsesStreamEvent;
          return { data, event: data.type };
        };
        yield frame({ type: 'response.created', response: responseSnapshot(echo, ids, 'in_progress') });
        yield frame({ type: 'response.in_progress', response: responseSnapshot(echo, ids, 'in_progress') });
        let response: ResponsesResponse;
        try {
          response = finished(await collectStream(events));
        } catch (error) {
          // The status went out with `response.created`: the failure is told in-band, as a translated stream's is.
          const fields = responseErrorFields(error);
          yield frame(errorEvent(fields));
          const failure = { code: fields.code ?? fields.type, message: fields.message, interrupted: false };
          yield frame({ type: 'response.failed', response: renderFailedResponse({ content: [] }, echo, ids, failure) });
          return;
        }
        const item = response.output[0];
        yield frame({ type: 'response.output_item.added', output_index: 0, item });
        yield frame({ type: 'response.output_item.done', output_index: 0, item });
        await save(response, null);
        yield frame({ type: 'response.completed', response });
      }
      return { frames: frames() };
    },
  };
}
