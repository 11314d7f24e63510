import { droppedParamNames, withoutDroppedParams } from '../../core/dropped-params.js';
import { gateCapabilities } from '../../core/gate-capabilities.js';
import { prefetchFirstEvent } from '../../core/prefetch-first-event.js';
import type { RouteTarget } from '../../core/router.js';
import { startTranslatedAnswer } from '../../core/start-translated-answer.js';
import { tallyStream } from '../../core/tally-stream.js';
import type { Usage } from '../../core/types.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GeminiPassThrough } from '../../providers/provider.js';
import type { ConvertedGenerateRequest } from './convert-generate-request.js';
import { geminiDroppedFields, geminiFeatureParams } from './gemini-params.js';
import { renderGenerateResponse, type GeminiAnswerIds } from './render-generate-response.js';
import { toGeminiChunks } from './to-gemini-chunks.js';
import type { GeminiGenerateContentRequest } from './wire-types.js';

/** An answer that has started upstream but of which the client has seen nothing yet. */
export type GeminiAnswer = (
  | { kind: 'response'; body: Record<string, unknown> }
  /** Chunk objects, or the upstream's `data:` payloads verbatim when passed through. */
  | {
      kind: 'stream';
      frames: AsyncIterable<unknown>;
      /** Characters of generated content sent on so far, for a client that leaves mid-stream. */
      deliveredSinceUsage(): number;
    }
) & {
  target: RouteTarget;
  /** Request fields left out because the model lacks the capability. */
  droppedParams: string[];
  /** Known once the answer is complete. */
  usage(): Usage | undefined;
};

export interface GeminiAttemptInput {
  body: GeminiGenerateContentRequest;
  converted: ConvertedGenerateRequest;
  stream: boolean;
  signal: AbortSignal;
  ids: GeminiAnswerIds;
}

/**
 * One routing attempt for a generateContent request: forward the client's body as it is when the upstream
 * speaks Gemini too, translate through the internal representation otherwise. Resolves once the upstream
 * has started answering, so failures until then can be retried.
 */
export async function startGeminiAnswer(target: RouteTarget, input: GeminiAttemptInput): Promise<GeminiAnswer> {
  const passThrough = target.deployment.provider.geminiPassThrough;
  if (passThrough) return forward(target, passThrough, input);

  const { converted, stream, signal, ids } = input;
  if (converted.geminiOnly.length > 0) {
    const provider = target.deployment.provider;
    throw new GatewayError(
      'invalid_request',
      `The model '${target.model.id}' is served by a ${provider.type} upstream ('${provider.id}'), which cannot honour ${converted.geminiOnly.join(', ')}: only Gemini upstreams can.`,
      { param: converted.geminiOnly[0], code: 'unsupported_parameter' },
    );
  }
  const answer = await startTranslatedAnswer(target, converted.request, { stream, signal, params: geminiFeatureParams });
  const droppedParams = droppedParamNames(geminiDroppedFields, input.body as Record<string, unknown>, answer.dropped);
  if (answer.kind === 'collected') {
    const body = renderGenerateResponse(answer.response, ids) as Record<string, unknown>;
    return { kind: 'response', body, target, droppedParams, usage: () => answer.response.usage };
  }
  const tallied = tallyStream(answer.events);
  return { kind: 'stream', frames: toGeminiChunks(tallied.events, ids), target, droppedParams, usage: tallied.usage, deliveredSinceUsage: tallied.deliveredSinceUsage };
}

async function forward(target: RouteTarget, passThrough: GeminiPassThrough, input: GeminiAttemptInput): Promise<GeminiAnswer> {
  const { dropped } = gateCapabilities(target.model, input.converted.request, { stream: input.stream, params: geminiFeatureParams });
  const { body, removed } = withoutDroppedParams(geminiDroppedFields, input.body as Record<string, unknown>, dropped);
  const context = { upstreamModel: target.deployment.upstreamModel, signal: input.signal };
  const forwarded = await passThrough.forward(body, { stream: input.stream }, context);
  if (forwarded.kind === 'json') return { kind: 'response', body: forwarded.body, target, droppedParams: removed, usage: () => forwarded.usage };
  const frames = await prefetchFirstEvent(forwarded.frames);
  return { kind: 'stream', frames, target, droppedParams: removed, usage: forwarded.usage, deliveredSinceUsage: forwarded.deliveredSinceUsage };
}
