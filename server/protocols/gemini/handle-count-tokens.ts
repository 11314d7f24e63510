import { principalOf } from '../../access/principal-of.js';
import type { Response } from 'express';
import type { SuccessBody, TypedRequest } from '../../../generated/operations.js';
import { countTokensOperation } from '../../core/count-tokens-operation.js';
import type { RoutedCallDependencies } from '../../core/route-call.js';
import type { RequestContext } from '../../core/request-context.js';
import { routeCall } from '../../core/route-call.js';
import { geminiCall } from './gemini-call.js';

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
  deps: RoutedCallDependencies,
): (req: TypedRequest<'countTokens'>, res: Response<SuccessBody<'countTokens'>>, context: RequestContext) => Promise<void> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const source = req.body.generateContentRequest ?? { contents: req.body.contents ?? [] };
    const call = { ...geminiCall(req.params.model, source, { stream: false, outputTokenCeiling: access.outputTokenCeiling() }), clientBody: req.body };
    const operation = countTokensOperation(call, source as Record<string, unknown>, (count): SuccessBody<'countTokens'> => ({ totalTokens: count.inputTokens }));
    await context.emit(await routeCall(deps, operation, context, access, context.work.signal));
  };
}
