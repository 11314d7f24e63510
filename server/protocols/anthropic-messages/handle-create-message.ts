import { messagesFeatureParams } from './messages-params.js';
import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { Router } from '../../core/router.js';
import type { ModelRequest } from '../../core/types.js';
import { describeRoute } from '../../http/describe-route.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { convertMessagesRequest, type ConversionMode } from './convert-messages-request.js';
import { newMessageId } from './message-ids.js';
import { sendMessageAnswer } from './send-message-answer.js';
import { startMessageAnswer } from './start-message-answer.js';

/**
 * `POST /v1/messages`, JSON or `text/event-stream`, over whichever deployment the router picks: forwarded
 * to Anthropic upstreams, translated for the others. Any `anthropic-version` is accepted (the SDKs send
 * different dates); `anthropic-beta` goes on to Anthropic upstreams.
 */
export function createMessageHandler(registry: ModelRegistry, router: Router): OperationHandler<'createMessage'> {
  return async (req, res, context) => {
    const body = req.body;
    const { access } = principalOf(context);
    const model = registry.resolve(body.model, access);
    const signal = requestAbortSignal(res);
    const converted: Partial<Record<ConversionMode, ModelRequest>> = {};
    // Messages requests always name max_tokens (the protocol requires it), which the ceiling has checked.
    const outputTokenCeiling = access.outputTokenCeiling();
    const request = (mode: ConversionMode) => (converted[mode] ??= { ...convertMessagesRequest(body, mode), outputTokenCeiling });
    const anthropicBeta = req.get('anthropic-beta');
    access.assertModelRequest(request('inspect'), { params: messagesFeatureParams, wire: { protocol: 'anthropic-messages', body } });

    const answer = await router.run(model, (target) => startMessageAnswer(target, { body, request, anthropicBeta, signal }), signal, access);
    describeRoute(res, context, answer.target, answer.droppedParams);
    await sendMessageAnswer(res, context, answer, { id: newMessageId(), model: body.model });
  };
}
