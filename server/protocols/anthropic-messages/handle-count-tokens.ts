import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler, SuccessBody } from '../../../generated/operations.js';
import { countTokensOperation } from '../../core/count-tokens-operation.js';
import type { RoutedCallDependencies } from '../../core/route-call.js';
import { routeCall } from '../../core/route-call.js';
import { messagesCall } from './messages-call.js';
import type { MessagesCreateRequest } from './wire-types.js';

/**
 * `POST /v1/messages/count_tokens`: the input tokens `POST /v1/messages` would cost on the deployment the
 * router picks, counted as that call would be sent (fields the model lacks the capability for left out).
 * Anthropic upstreams count themselves; for the others it is the gateway's estimate
 * (core/count-input-tokens.ts). Parts only Anthropic can read are left out of the count rather than
 * refused, since counting them was all that was asked. The body passes the same access step as
 * `POST /v1/messages` (admitModelCall), since an upstream reads it all the same.
 */
export function createCountTokensHandler(deps: RoutedCallDependencies): OperationHandler<'countMessageTokens'> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    // A count body is a Messages body without `max_tokens`, which nothing on this path reads.
    const call = messagesCall(req.body as MessagesCreateRequest, { outputTokenCeiling: access.outputTokenCeiling() });
    const operation = countTokensOperation(call, req.body as Record<string, unknown>, (count): SuccessBody<'countMessageTokens'> => ({ input_tokens: count.inputTokens }));
    await context.emit(await routeCall(deps, operation, context, access, context.work.signal));
  };
}
