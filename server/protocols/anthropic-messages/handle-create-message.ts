import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import { callModel } from '../../core/model-call.js';
import type { RoutedCallDependencies } from '../../core/route-call.js';
import { messagesCall } from './messages-call.js';

/**
 * `POST /v1/messages`, JSON or `text/event-stream`, over whichever deployment the router picks. Any
 * `anthropic-version` is accepted (the SDKs send different dates).
 */
export function createMessageHandler(deps: RoutedCallDependencies): OperationHandler<'createMessage'> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const call = messagesCall(req.body, { outputTokenCeiling: access.outputTokenCeiling(), anthropicBeta: req.get('anthropic-beta') });
    await context.emit(await callModel(deps, call, context, access, context.work.signal));
  };
}
