import { responsesProtocol } from './responses-protocol.js';
import { withOutputCap } from '../../access/output-ceiling.js';
import type { ModelCall } from '../../core/model-call.js';
import type { ModelRequest } from '../../core/internal-representation.js';
import { convertResponsesRequest } from './convert-responses-request.js';
import { droppedHostedTools, hostedToolsOf } from './hosted-tools.js';
import { forwardedResponseRenderer } from './render-forwarded-response.js';
import { translatedResponseRenderer } from './render-translated-response.js';
import { newResponseId } from './response-ids.js';
import { responsesDroppedFields, responsesFeatureParams, responsesOutputCap } from './responses-params.js';
import { bodyForUpstream, broughtItems, loadHistory, type LoadedHistory } from './responses-history.js';
import { responseSaver, type ResponseKeeping } from './save-response.js';
import type { ResponsesCreateRequest } from './wire-types.js';

/**
 * A Responses request for the model-call pipeline (core/model-call.ts), with the protocol's state as two
 * hooks around it: history in (the conversation of `previous_response_id`, from the gateway's own store,
 * before anything is checked) and store out (the finished answer kept for the next turn, with `store`,
 * the default). Forwarded to an upstream configured `api: responses`, translated for the others.
 */
export function responsesCall(clientBody: ResponsesCreateRequest, options: { owner: string; outputTokenCeiling: number | undefined; keeping: ResponseKeeping }): ModelCall {
  const body = withOutputCap(clientBody, responsesOutputCap, options.outputTokenCeiling);
  const id = newResponseId();
  const save = responseSaver(options.keeping, options.owner, body, id);
  let history: LoadedHistory | undefined;
  let request: ModelRequest | undefined;
  const loaded = () => {
    if (!history) throw new Error('the Responses history is read in prepare(), before the request is');
    return history;
  };
  return {
    protocol: responsesProtocol,
    model: body.model,
    stream: body.stream === true,
    clientBody,
    body: body as Record<string, unknown>,
    params: responsesFeatureParams,
    droppedFields: responsesDroppedFields,
    async prepare() {
      history = await loadHistory(options.keeping.store, options.owner, body);
    },
    brought: () => broughtItems(loaded(), body.input),
    request: () => (request ??= { ...convertResponsesRequest(body, loaded().forConversion), outputTokenCeiling: options.outputTokenCeiling }),
    forwardBody: (forwarded, target) => bodyForUpstream(forwarded, body.input, loaded(), target),
    untranslated: (target) => droppedHostedTools(target.model, hostedToolsOf(body.tools)),
    forwarded: forwardedResponseRenderer({ id, previousResponseId: body.previous_response_id ?? null }, save, body.store !== false),
    translated: translatedResponseRenderer(body, id, save),
  };
}
