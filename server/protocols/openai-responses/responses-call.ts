import { responsesProtocol } from './responses-protocol.js';
import { withOutputCap } from '../../access/output-ceiling.js';
import type { ModelCall } from '../../core/model-call.js';
import type { SuccessBody } from '../../../generated/operations.js';
import type { ModelRequest } from '../../core/internal-representation.js';
import { convertResponsesRequest } from './convert-responses-request.js';
import { droppedHostedTools, hostedToolsOf } from './hosted-tools.js';
import { forwardedResponseRenderer } from './render-forwarded-response.js';
import { translatedResponseRenderer } from './render-translated-response.js';
import type { ResponsesStreamEvent } from './to-response-events.js';
import { newResponseId } from './response-ids.js';
import { responsesDroppedFields, responsesFeatureParams, responsesOutputCap } from './responses-params.js';
import { bodyForUpstream, broughtItems, loadHistory, type LoadedHistory } from './responses-history.js';
import { responseSaver, type ResponseKeeping } from './save-response.js';
import { conversationIdOf } from './conversation-items.js';
import { savingToConversation } from './conversation-turn.js';
import { storedInputItems } from './stored-input-items.js';
import type { ResponsesCreateRequest } from './wire-types.js';
import type { CompactionSeal } from './compaction-seal.js';
import { compactionOf } from './responses-compaction.js';

/**
 * A Responses request for the model-call pipeline (core/model-call.ts), with the protocol's state as two
 * hooks around it: history in (the conversation of `previous_response_id` or the `conversation`, from the
 * gateway's own store, before anything is checked) and store out (the finished answer kept for the next
 * turn, with `store`, the default; the turn's items appended to the `conversation`). Forwarded to an upstream configured `api: responses`, translated for the others.
 */
export function responsesCall(
  clientBody: ResponsesCreateRequest,
  options: { owner: string; outputTokenCeiling: number | undefined; keeping: ResponseKeeping; seal: CompactionSeal },
): ModelCall<SuccessBody<'createResponse'>, ResponsesStreamEvent> {
  // Compaction items the gateway sealed are opened into their summaries before anything else reads the body.
  const compaction = compactionOf(clientBody, options.seal, options.owner);
  const body = withOutputCap(compaction.body, responsesOutputCap, options.outputTokenCeiling);
  const id = newResponseId();
  const inputItems = storedInputItems(body.input);
  const conversationId = conversationIdOf(body);
  let history: LoadedHistory | undefined;
  let request: ModelRequest | undefined;
  const loaded = () => {
    if (!history) throw new Error('the Responses history is read in prepare(), before the request is');
    return history;
  };
  const save = savingToConversation(
    responseSaver(options.keeping, options.owner, body, id, inputItems),
    conversationId === undefined ? undefined : { conversations: options.keeping.conversations, conversationId, owner: options.owner, inputItems, lookup: () => loaded().lookup },
  );
  return {
    protocol: responsesProtocol,
    model: body.model,
    stream: body.stream === true,
    clientBody,
    body: body as Record<string, unknown>,
    params: responsesFeatureParams,
    droppedFields: responsesDroppedFields,
    async prepare() {
      history = compaction.openHistory(await loadHistory(options.keeping, options.owner, body));
    },
    brought: () => broughtItems(loaded(), body.input),
    request: (mode) => {
      request ??= { ...convertResponsesRequest(body, loaded().forConversion), outputTokenCeiling: options.outputTokenCeiling };
      return mode === 'translate' ? compaction.translatedRequest(request) : request;
    },
    forwardBody: (forwarded, target) => bodyForUpstream(forwarded, body.input, loaded(), target),
    untranslated: (target) => {
      compaction.assertTranslatable(loaded(), target);
      return droppedHostedTools(target.model, hostedToolsOf(body.tools));
    },
    forwarded: forwardedResponseRenderer({ id, previousResponseId: body.previous_response_id ?? null, conversation: conversationId === undefined ? null : { id: conversationId } }, save, body.store !== false),
    translated: compaction.renderer(body, id, save) ?? translatedResponseRenderer(body, id, save),
  };
}
