import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import { callModel, type ModelCallDependencies } from '../../core/model-call.js';
import { ownerOf } from './handle-stored-responses.js';
import { responsesCall } from './responses-call.js';
import type { ResponseKeeping } from './save-response.js';

export type ResponsesDependencies = ModelCallDependencies & ResponseKeeping;

/**
 * `POST /v1/responses` on any upstream: the gateway rebuilds the conversation of `previous_response_id`
 * from its own store, forwards the request to an upstream Responses API or translates it, and keeps the
 * answer and its input for the next turn (see responses-call.ts).
 */
export function createResponseHandler(deps: ResponsesDependencies): OperationHandler<'createResponse'> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const call = responsesCall(req.body, { owner: ownerOf(context), outputTokenCeiling: access.outputTokenCeiling(), keeping: deps });
    await context.emit(await callModel(deps, call, context, access, context.work.signal));
  };
}
