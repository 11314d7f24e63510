import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import { admitModelCall, callModel } from '../../core/model-call.js';
import type { RoutedCallDependencies } from '../../core/route-call.js';
import { ownerOf } from './handle-stored-responses.js';
import { responsesCall } from './responses-call.js';
import { newResponseId } from './response-ids.js';
import type { ResponseKeeping } from './save-response.js';
import { warmUpResponse, type WarmUpTest } from './warm-up.js';
import type { SuccessBody } from '../../../generated/operations.js';
import type { CompactionSeal } from './compaction-seal.js';

export type ResponsesDependencies = RoutedCallDependencies & ResponseKeeping & { seal: CompactionSeal; isWarmUp?: WarmUpTest };

/**
 * `POST /v1/responses` on any upstream: the gateway rebuilds the conversation of `previous_response_id`
 * from its own store, forwards the request to an upstream Responses API or translates it, and keeps the
 * answer and its input for the next turn (see responses-call.ts).
 *
 * A WebSocket warm-up (`generate: false`, warm-up.ts) is admitted as the same request would be (the model
 * resolved, 404, the key's permissions, 403, the conversation of `previous_response_id` read, the body
 * checked) and was metered and limited before it (a ledger row with no tokens), then answered without
 * calling the model: a warm-up is no way around a check.
 */
export function createResponseHandler(deps: ResponsesDependencies): OperationHandler<'createResponse'> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const call = responsesCall(req.body, { owner: ownerOf(context), outputTokenCeiling: access.outputTokenCeiling(), keeping: deps, seal: deps.seal });
    if (deps.isWarmUp?.(req)) {
      await admitModelCall(deps.registry, call, access);
      res.json(warmUpResponse(req.body, newResponseId()) as SuccessBody<'createResponse'>);
      return;
    }
    await context.emit(await callModel(deps, call, context, access, context.work.signal));
  };
}
