import type { SuccessBody } from '../../../generated/operations.js';
import type { ModelRequest, ModelResponse, StreamEvent } from '../../core/internal-representation.js';
import type { AnswerRenderer } from '../../core/model-call.js';
import type { RouteTarget } from '../../core/route-target.js';
import { foreignCompactionItems, foreignCompactionRefused, isCompactionTrigger, openSealedItems } from './compaction-items.js';
import { summarizingRequest } from './compaction-request.js';
import type { CompactionSeal } from './compaction-seal.js';
import { compactionResponseRenderer, sealedCompactionItem } from './render-compaction.js';
import { responseEcho } from './response-echo.js';
import type { LoadedHistory } from './responses-history.js';
import type { SaveResponse } from './save-response.js';
import type { ResponsesStreamEvent } from './to-response-events.js';
import type { ResponsesCreateRequest, ResponsesInputItem } from './wire-types.js';

/** What compaction changes in one `POST /v1/responses` (responses-call.ts asks it at each step). */
export interface ResponsesCompaction {
  /** The body with the gateway's sealed `compaction` items opened into their summaries. */
  body: ResponsesCreateRequest;
  /** The stored conversation with the same done to it. */
  openHistory(history: LoadedHistory): LoadedHistory;
  /** The request a translating upstream gets: a summary of the conversation when `input` ends in `compaction_trigger`. */
  translatedRequest(request: ModelRequest): ModelRequest;
  /** Refuses an upstream's own `compaction` item for an upstream that is not an `api: responses` one (400). */
  assertTranslatable(history: LoadedHistory, target: RouteTarget): void;
  /** The renderer of a translated answer to a `compaction_trigger`; undefined for an ordinary request. */
  renderer(body: ResponsesCreateRequest, id: string, save: SaveResponse):
    | AnswerRenderer<ModelResponse, StreamEvent, SuccessBody<'createResponse'>, ResponsesStreamEvent>
    | undefined;
}

/**
 * Compaction on every upstream (OpenAI's `compaction_trigger` item and `compaction` items): an
 * `api: responses` upstream gets them as they are; for any other the gateway makes the summary with the
 * same model and seals it (compaction-seal.ts) into the one `compaction` item of the answer, and opens it
 * again when it comes back, in `input` or in the conversation of `previous_response_id`.
 */
export function compactionOf(clientBody: ResponsesCreateRequest, seal: CompactionSeal, account: string): ResponsesCompaction {
  const input = Array.isArray(clientBody.input) ? openSealedItems(clientBody.input, seal, account, (index) => `input[${index}]`) : clientBody.input;
  const body = { ...clientBody, input };
  const triggered = Array.isArray(input) && isCompactionTrigger(input.at(-1));
  return {
    body,
    openHistory(history) {
      if (!history.previous) return history;
      const items = openSealedItems(history.previous.items, seal, account, (index) => `previous_response_id[${index}]`);
      return {
        ...history,
        previous: { ...history.previous, items },
        forConversion: { ...history.forConversion, items: items as ResponsesInputItem[] },
      };
    },
    translatedRequest: (request) => (triggered ? summarizingRequest(request) : request),
    assertTranslatable(history, target) {
      const [first] = [
        ...foreignCompactionItems(history.previous?.items ?? [], (index) => `previous_response_id[${index}]`),
        ...foreignCompactionItems(Array.isArray(input) ? input : [], (index) => `input[${index}]`),
      ];
      if (first) throw foreignCompactionRefused(first, target.model.id);
    },
    renderer(requestBody, id, save) {
      if (!triggered) return undefined;
      const ids = { id, createdAt: Math.floor(Date.now() / 1000) };
      return compactionResponseRenderer(responseEcho(requestBody), ids, (summary) => sealedCompactionItem(summary, seal, account), save);
    },
  };
}
