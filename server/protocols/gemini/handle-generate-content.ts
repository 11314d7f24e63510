import { camelCaseFieldNames } from './camel-case-field-names.js';
import { geminiFeatureParams, geminiOutputCap } from './gemini-params.js';
import { withOutputCap } from '../../access/output-ceiling.js';
import { principalOf } from '../../access/principal-of.js';
import type { Response } from 'express';
import type { SuccessBody, TypedRequest } from '../../../generated/operations.js';
import type { ModelRegistry } from '../../core/model-registry.js';
import type { Router } from '../../core/router.js';
import { describeRoute } from '../../http/describe-route.js';
import type { RequestContext } from '../../http/request-context.js';
import { renderErrorBody } from '../../http/render-error.js';
import { requestAbortSignal } from '../../http/request-abort-signal.js';
import { convertGenerateRequest } from './convert-generate-request.js';
import { openGeminiStream } from './open-gemini-stream.js';
import { newGeminiResponseId } from './render-generate-response.js';
import { startGeminiAnswer, type GeminiAnswer } from './start-gemini-answer.js';
import type { GeminiGenerateContentRequest } from './wire-types.js';
import { sendStream } from '../../http/send-stream.js';

interface GenerateDependencies {
  registry: ModelRegistry;
  router: Router;
}

/**
 * The `v1beta` and `v1` operations have the same request and answer; a plain function type (rather than
 * the generated per-operation alias) lets one handler serve both.
 */
type Handler<O extends 'generateContent' | 'streamGenerateContent'> = (req: TypedRequest<O>, res: Response<SuccessBody<O>>, context: RequestContext) => Promise<void>;

/** `POST /{v1beta,v1}/models/{model}:generateContent` on any model: one GenerateContentResponse. */
export function createGenerateContentHandler(deps: GenerateDependencies): Handler<'generateContent'> {
  return async (req, res, context) => {
    const answer = await startAnswer(deps, req.params.model, req.body, false, res, context);
    describeRoute(res, context, answer.target, answer.droppedParams);
    if (answer.kind !== 'response') throw new Error('a non-stream attempt answered with a stream');
    context.usage = answer.usage();
    res.json(answer.body as never);
  };
}

/**
 * `POST /{v1beta,v1}/models/{model}:streamGenerateContent`: server-sent events with `alt=sse`, one JSON
 * array streamed element by element without. Failures once the stream has begun arrive in-band as a last
 * `{"error":{code,message,status}}` chunk, which the Google GenAI SDK throws as an ApiError.
 */
export function createStreamGenerateContentHandler(deps: GenerateDependencies): Handler<'streamGenerateContent'> {
  return async (req, res, context) => {
    const answer = await startAnswer(deps, req.params.model, req.body, true, res, context);
    describeRoute(res, context, answer.target, answer.droppedParams);
    if (answer.kind !== 'stream') throw new Error('a stream attempt answered with a whole response');
    context.streamed = { usage: answer.usage, deliveredSinceUsage: answer.deliveredSinceUsage };
    await sendStream(openGeminiStream(res, req.query.alt), answer.frames, {
      frameOf: (frame) => ({ data: frame }),
      errorFrames: (error) => [{ data: renderErrorBody('gemini', error) }],
      finish: () => (context.usage = answer.usage()),
    });
  };
}

async function startAnswer(
  deps: GenerateDependencies,
  modelId: string,
  clientBody: GeminiGenerateContentRequest,
  stream: boolean,
  res: Response,
  context: RequestContext,
): Promise<GeminiAnswer> {
  const { access } = principalOf(context);
  const model = deps.registry.resolve(modelId, access);
  const ceiling = access.outputTokenCeiling();
  const body = withOutputCap(camelCaseFieldNames(clientBody), geminiOutputCap, ceiling);
  const converted = convertGenerateRequest(body, model.id);
  converted.request.outputTokenCeiling = ceiling;
  access.assertModelRequest(converted.request, { params: geminiFeatureParams, wire: { protocol: 'gemini', body: clientBody } });
  const signal = requestAbortSignal(res);
  const ids = { model: model.id, responseId: newGeminiResponseId() };
  return deps.router.run(model, (target) => startGeminiAnswer(target, { body, converted, stream, signal, ids }), signal, access);
}
