import { geminiProtocol } from './gemini-protocol.js';
import { withOutputCap } from '../../access/output-ceiling.js';
import { framesOf } from '../../core/frames-of.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ModelCall } from '../../core/model-call.js';
import { asUpstreamAnswer } from '../../core/upstream-answer.js';
import type { SuccessBody } from '../../../generated/operations.js';
import { renderGeminiError } from './render-gemini-error.js';
import { convertGenerateRequest, type ConvertedGenerateRequest } from './convert-generate-request.js';
import { geminiDroppedFields, geminiFeatureParams, geminiOutputCap } from './gemini-params.js';
import { newGeminiResponseId, renderGenerateResponse } from './render-generate-response.js';
import { toGeminiChunks } from './to-gemini-chunks.js';
import type { GeminiGenerateContentRequest, GeminiStreamData } from './wire-types.js';

/**
 * A generateContent request for the model-call pipeline (core/model-call.ts): the client's body goes as it
 * is to an upstream that speaks Gemini (field names in camelCase, as the front door left them), through the internal representation to
 * the others, which refuse what only Gemini can do. Whether it streams is the operation's, not the body's.
 * Failures once a stream has begun arrive in-band as a last `{"error":{code,message,status}}` chunk, which
 * the Google GenAI SDK throws as an ApiError.
 */
export function geminiCall(
  model: string,
  clientBody: GeminiGenerateContentRequest,
  options: { stream: boolean; outputTokenCeiling: number | undefined },
): ModelCall<SuccessBody<'generateContent'>, GeminiStreamData> {
  const body = withOutputCap(clientBody, geminiOutputCap, options.outputTokenCeiling);
  let converted: ConvertedGenerateRequest | undefined;
  const convert = () => {
    if (converted) return converted;
    converted = convertGenerateRequest(body, model);
    converted.request.outputTokenCeiling = options.outputTokenCeiling;
    return converted;
  };
  const ids = { model, responseId: newGeminiResponseId() };
  const errorFrames = (error: GatewayError) => [{ data: renderGeminiError(error) }];
  return {
    protocol: geminiProtocol,
    model,
    stream: options.stream,
    clientBody,
    body: body as Record<string, unknown>,
    params: geminiFeatureParams,
    droppedFields: geminiDroppedFields,
    request: () => convert().request,
    untranslated(target) {
      const { geminiOnly } = convert();
      if (geminiOnly.length === 0) return [];
      const provider = target.deployment.provider;
      throw new GatewayError(
        'invalid_request',
        `The model '${target.model.id}' is served by a ${provider.type} upstream ('${provider.id}'), which cannot honour ${geminiOnly.join(', ')}: only Gemini upstreams can.`,
        { param: geminiOnly[0], code: 'unsupported_parameter' },
      );
    },
    forwarded: {
      json: (answer) => asUpstreamAnswer<SuccessBody<'generateContent'>>(answer),
      stream: (frames) => ({ frames: framesOf(frames, ({ data }) => ({ data: asUpstreamAnswer<GeminiStreamData>(data) })), errorFrames }),
    },
    translated: {
      json: (response) => renderGenerateResponse(response, ids),
      stream: (events) => ({ frames: framesOf(toGeminiChunks(events, ids), (data): { data: GeminiStreamData } => ({ data })), errorFrames }),
    },
  };
}
