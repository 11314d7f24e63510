import { droppedParamNames, untranslatedParamNames, withoutDroppedParams } from '../../core/dropped-params.js';
import { gateCapabilities } from '../../core/gate-capabilities.js';
import { prefetchFirstEvent } from '../../core/prefetch-first-event.js';
import type { RouteTarget } from '../../core/router.js';
import { startTranslatedAnswer, type TranslatedAnswer } from '../../core/start-translated-answer.js';
import type { ModelRequest } from '../../core/types.js';
import type { ForwardedMessages } from '../../providers/provider.js';
import type { ConversionMode } from './convert-messages-request.js';
import { messagesDroppedFields, messagesFeatureParams, messagesTranslatedFields } from './messages-params.js';
import type { MessagesCreateRequest } from './wire-types.js';

/** An answer that has begun upstream but of which the client has seen nothing yet. */
export type MessageAnswer = (
  | { kind: 'forwarded'; forwarded: ForwardedMessages }
  | { kind: 'translated'; translated: TranslatedAnswer }
) & {
  target: RouteTarget;
  /** Request fields left out because the model lacks the capability. */
  droppedParams: string[];
};

export interface MessageAttemptInput {
  body: MessagesCreateRequest;
  /**
   * The request in the internal representation: `inspect` for the capability gate of a pass-through,
   * `translate` for other upstreams (it refuses what only Anthropic can take). Built on first use.
   */
  request(mode: ConversionMode): ModelRequest;
  /** The client's `anthropic-beta` header. */
  anthropicBeta?: string;
  signal: AbortSignal;
}

/**
 * One routing attempt for a Messages request: forward it with the least rewriting when the upstream
 * speaks Messages too, else translate it through the internal representation. Resolves once the
 * upstream's answer has begun, so failures until then can be retried.
 */
export async function startMessageAnswer(target: RouteTarget, input: MessageAttemptInput): Promise<MessageAnswer> {
  const { body, signal } = input;
  const stream = body.stream === true;
  const passThrough = target.deployment.provider.messagesPassThrough;

  if (passThrough) {
    const { dropped } = gateCapabilities(target.model, input.request('inspect'), { stream, params: messagesFeatureParams });
    const { body: forwardedBody, removed } = withoutDroppedParams(messagesDroppedFields, body as Record<string, unknown>, dropped);
    const context = { upstreamModel: target.deployment.upstreamModel, signal, ...(input.anthropicBeta ? { anthropicBeta: input.anthropicBeta } : {}) };
    const forwarded = await passThrough.forward(forwardedBody, context);
    if (forwarded.kind === 'stream') forwarded.events = await prefetchFirstEvent(forwarded.events);
    return { kind: 'forwarded', forwarded, target, droppedParams: removed };
  }

  const translated = await startTranslatedAnswer(target, input.request('translate'), { stream, signal, params: messagesFeatureParams });
  const fields = body as Record<string, unknown>;
  const droppedParams = [...droppedParamNames(messagesDroppedFields, fields, translated.dropped), ...untranslatedParamNames(fields, messagesTranslatedFields)];
  return { kind: 'translated', translated, target, droppedParams };
}
