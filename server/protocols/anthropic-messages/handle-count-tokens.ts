import { principalOf } from '../../access/principal-of.js';
import type { OperationHandler } from '../../../generated/operations.js';
import { countInputTokens } from '../../core/count-input-tokens.js';
import { droppedParamNames } from '../../core/dropped-params.js';
import { gateCapabilities } from '../../core/gate-capabilities.js';
import { admitModelCall } from '../../core/model-call.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { Router } from '../../core/router.js';
import { describeRoute } from '../../http/describe-route.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { messagesCall } from './messages-call.js';
import { messagesDroppedFields, messagesFeatureParams } from './messages-params.js';
import type { MessagesCreateRequest } from './wire-types.js';

/**
 * `POST /v1/messages/count_tokens`: the input tokens `POST /v1/messages` would cost on the deployment the
 * router picks, counted as that call would be sent (fields the model lacks the capability for left out).
 * Anthropic upstreams count themselves; for the others it is the gateway's estimate
 * (core/count-input-tokens.ts). Parts only Anthropic can read are left out of the count rather than
 * refused, since counting them was all that was asked. The body passes the same access step as
 * `POST /v1/messages` (admitModelCall), since an upstream reads it all the same.
 */
export function createCountTokensHandler(registry: ModelRegistry, router: Router): OperationHandler<'countMessageTokens'> {
  return async (req, res, context) => {
    const body = req.body;
    const { access } = principalOf(context);
    // A count body is a Messages body without `max_tokens`, which nothing on this path reads.
    const call = messagesCall(body as MessagesCreateRequest, { outputTokenCeiling: access.outputTokenCeiling() });
    const model = await admitModelCall(registry, call, access);
    const request = call.request('inspect');
    const signal = requestAbortSignal(res);

    const counted = await router.run(
      model,
      async (target) => {
        const { request: gated, dropped } = gateCapabilities(target.model, request, { stream: false, params: messagesFeatureParams });
        return { target, dropped, count: await countInputTokens(target, gated, signal) };
      },
      signal,
      access,
    );
    describeRoute(res, context, counted.target, droppedParamNames(messagesDroppedFields, body as Record<string, unknown>, counted.dropped));
    res.json({ input_tokens: counted.count.inputTokens });
  };
}
