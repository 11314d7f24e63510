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
  return async (req, res) => {
    const body = req.body;
    const { access } = principalOf(res);
    const model = registry.resolve(body.model, access);
    const signal = requestAbortSignal(res);
    const converted: Partial<Record<ConversionMode, ModelRequest>> = {};
    const request = (mode: ConversionMode) => (converted[mode] ??= convertMessagesRequest(body, mode));
    const anthropicBeta = req.get('anthropic-beta');
    access.assertModelRequest(request('inspect'), { params: messagesFeatureParams });

    const answer = await router.run(model, (target) => startMessageAnswer(target, { body, request, anthropicBeta, signal }), signal, access);
    describeRoute(res, answer.target, answer.droppedParams);
    await sendMessageAnswer(res, answer, { id: newMessageId(), model: body.model }, signal);
  };
}
