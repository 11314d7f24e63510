import { principalOf } from '../../access/principal-of.js';
import type { Response } from 'express';
import type { SuccessBody, TypedRequest } from '../../../generated/operations.js';
import { countInputTokens } from '../../core/count-input-tokens.js';
import { gateCapabilities } from '../../core/gate-capabilities.js';
import { admitModelCall } from '../../core/model-call.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { Router } from '../../core/router.js';
import { describeRoute } from '../../http/describe-route.js';
import type { RequestContext } from '../../core/request-context.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { droppedParamNames } from '../../core/dropped-params.js';
import { geminiCall } from './gemini-call.js';
import { geminiDroppedFields, geminiFeatureParams } from './gemini-params.js';

/**
 * `POST /{v1beta,v1}/models/{model}:countTokens`: the tokens of `contents`, or of a whole
 * `generateContentRequest` (system instruction and tools too), counted as generateContent would send them
 * to the deployment the router picks (fields the model lacks the capability for left out). A Gemini or
 * Anthropic upstream counts them itself; for the others the gateway estimates (core/count-input-tokens.ts).
 * Routed like a generation, so a deployment that fails is retried and fallbacks are used; read and checked
 * like one too (geminiCall, admitModelCall), the permissions' scan reading the count body as the client
 * wrote it.
 */
export function createGeminiCountTokensHandler(
  registry: ModelRegistry,
  router: Router,
): (req: TypedRequest<'countTokens'>, res: Response<SuccessBody<'countTokens'>>, context: RequestContext) => Promise<void> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const source = req.body.generateContentRequest ?? { contents: req.body.contents ?? [] };
    const call = { ...geminiCall(req.params.model, source, { stream: false, outputTokenCeiling: access.outputTokenCeiling() }), clientBody: req.body };
    const model = await admitModelCall(registry, call, access);
    const request = call.request('inspect');
    const signal = requestAbortSignal(res);
    const counted = await router.run(
      model,
      async (target) => {
        const { request: gated, dropped } = gateCapabilities(target.model, request, { stream: false, params: geminiFeatureParams });
        return { target, dropped, count: await countInputTokens(target, gated, signal) };
      },
      signal,
      access,
    );
    describeRoute(res, context, counted.target, droppedParamNames(geminiDroppedFields, source as Record<string, unknown>, counted.dropped));
    res.json({ totalTokens: counted.count.inputTokens });
  };
}
