import type { OperationHandler } from '../../../generated/operations.js';
import { principalOf } from '../../access/principal-of.js';
import { routeCall } from '../../core/route-call.js';
import { compactOperation } from './compact-operation.js';
import type { ResponsesDependencies } from './handle-create-response.js';
import { ownerOf } from './handle-stored-responses.js';
import { sealedCompactionItem } from './render-compaction.js';
import { responsesCall } from './responses-call.js';
import type { ResponsesCreateRequest, ResponsesInputItem } from './wire-types.js';

/**
 * `POST /v1/responses/compact` on every upstream, as its own routed operation (compact-operation.ts),
 * metered, limited and traced like a generation. The conversation is read as `POST /v1/responses` reads
 * it (responses-call.ts: the stored conversation of `previous_response_id`, the gateway's sealed items
 * opened, the key's permissions checked), from a create request of the same input, instructions and
 * `previous_response_id`; the operation asks for the summary itself, so the create flow knows nothing of
 * this endpoint (its own `compaction_trigger` item is another way in, for `POST /v1/responses`).
 */
export function createCompactHandler(deps: ResponsesDependencies): OperationHandler<'compactResponse'> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const owner = ownerOf(context);
    const body = req.body;
    const input: ResponsesInputItem[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
    const conversation: ResponsesCreateRequest = {
      model: body.model,
      input,
      instructions: body.instructions ?? null,
      previous_response_id: body.previous_response_id ?? null,
      store: false,
      stream: false,
    };
    const call = responsesCall(conversation, { owner, outputTokenCeiling: access.outputTokenCeiling(), keeping: deps, seal: deps.seal });
    const retained = input.filter((item) => 'role' in item && item.role === 'user' && (item.type ?? 'message') === 'message');
    const operation = compactOperation(call, body, retained, (summary) => sealedCompactionItem(summary, deps.seal, owner));
    await context.emit(await routeCall(deps, operation, context, access, context.work.signal));
  };
}
