import type { Response } from 'express';
import { principalOf } from '../../access/principal-of.js';
import type { SuccessBody, TypedRequest } from '../../../generated/operations.js';
import { callModel } from '../../core/model-call.js';
import type { RoutedCallDependencies } from '../../core/route-call.js';
import type { RequestContext } from '../../core/request-context.js';
import { geminiCall } from './gemini-call.js';

/**
 * The `v1beta` and `v1` operations have the same request and answer; a plain function type (rather than
 * the generated per-operation alias) lets one handler serve both.
 */
type Handler<O extends 'generateContent' | 'streamGenerateContent'> = (req: TypedRequest<O>, res: Response<SuccessBody<O>>, context: RequestContext) => Promise<void>;

/** `POST /{v1beta,v1}/models/{model}:generateContent` on any model: one GenerateContentResponse. */
export function createGenerateContentHandler(deps: RoutedCallDependencies): Handler<'generateContent'> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const call = geminiCall(req.params.model, req.body, { stream: false, outputTokenCeiling: access.outputTokenCeiling() });
    await context.emit(await callModel(deps, call, context, access, context.work.signal));
  };
}

/**
 * `POST /{v1beta,v1}/models/{model}:streamGenerateContent`: server-sent events with `alt=sse` (each
 * frame's data on one line: Google's SDKs parse each `data:` line as JSON by itself), one JSON array
 * streamed element by element without.
 */
export function createStreamGenerateContentHandler(deps: RoutedCallDependencies): Handler<'streamGenerateContent'> {
  return async (req, res, context) => {
    const { access } = principalOf(context);
    const call = geminiCall(req.params.model, req.body, { stream: true, outputTokenCeiling: access.outputTokenCeiling() });
    const answer = await callModel(deps, call, context, access, context.work.signal);
    await context.emit(answer, req.query.alt === 'sse' ? 'sse-one-line' : 'json-array');
  };
}
