import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import { callModel } from '../../core/model-call.js';
import type { RoutedCallDependencies } from '../../core/route-call.js';
import { chatCall } from './chat-call.js';

/** `POST /v1/chat/completions`, JSON or `text/event-stream`, over whichever deployment the router picks. */
export function createChatCompletionHandler(deps: RoutedCallDependencies): OperationHandler<'createChatCompletion'> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const call = chatCall(req.body, access.outputTokenCeiling());
    await context.emit(await callModel(deps, call, context, access, context.work.signal));
  };
}
