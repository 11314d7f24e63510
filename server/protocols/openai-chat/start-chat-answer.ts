import { droppedParamNames, withoutDroppedParams } from '../../core/dropped-params.js';
import { gateCapabilities } from '../../core/gate-capabilities.js';
import { prefetchFirstEvent } from '../../core/prefetch-first-event.js';
import type { RouteTarget } from '../../core/router.js';
import { startTranslatedAnswer } from '../../core/start-translated-answer.js';
import { tallyStream } from '../../core/tally-stream.js';
import type { ModelRequest, StreamEvent, Usage } from '../../core/types.js';
import { chatDroppedFields, chatFeatureParams } from './chat-params.js';
import { renderChatCompletion } from './render-chat-completion.js';
import type { ChatCompletionRequest } from './wire-types.js';

/** An answer that has started upstream but of which the client has seen nothing yet. */
export type ChatAnswer = (
  | { kind: 'completion'; body: Record<string, unknown> }
  /** Chunk objects or verbatim upstream `data:` payloads, `[DONE]` last. */
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

export interface ChatAttemptInput {
  body: ChatCompletionRequest;
  request: ModelRequest;
  signal: AbortSignal;
  /** Builds the chunk stream for translated answers (id, created, include_usage). */
  toChunks(events: AsyncIterable<StreamEvent>): AsyncIterable<unknown>;
}

/**
 * One routing attempt for a Chat Completions request: fit the request to the target model, then either
 * forward it as is (the upstream speaks Chat Completions) or translate through the internal
 * representation (core/start-translated-answer.ts). Resolves once the upstream has started answering, so
 * failures until then can be retried.
 */
export async function startChatAnswer(target: RouteTarget, input: ChatAttemptInput): Promise<ChatAnswer> {
  const { body, signal } = input;
  const stream = body.stream === true;
  const passThrough = target.deployment.provider.chatPassThrough;

  if (passThrough) {
    const { dropped } = gateCapabilities(target.model, input.request, { stream, params: chatFeatureParams });
    const { body: forwardedBody, removed } = withoutDroppedParams(chatDroppedFields, body as Record<string, unknown>, dropped);
    const forwarded = await passThrough.forward(forwardedBody, { upstreamModel: target.deployment.upstreamModel, signal });
    if (forwarded.kind === 'json') {
      return { kind: 'completion', body: forwarded.body, target, droppedParams: removed, usage: () => forwarded.usage };
    }
    const frames = await prefetchFirstEvent(forwarded.frames);
    return { kind: 'stream', frames, target, droppedParams: removed, usage: forwarded.usage, deliveredSinceUsage: forwarded.deliveredSinceUsage };
  }

  const answer = await startTranslatedAnswer(target, input.request, { stream, signal, params: chatFeatureParams });
  const droppedParams = droppedParamNames(chatDroppedFields, body as Record<string, unknown>, answer.dropped);
  if (answer.kind === 'collected') {
    const completion = renderChatCompletion(answer.response, body.model) as unknown as Record<string, unknown>;
    return { kind: 'completion', body: completion, target, droppedParams, usage: () => answer.response.usage };
  }
  const tallied = tallyStream(answer.events);
  return { kind: 'stream', frames: withDone(input.toChunks(tallied.events)), target, droppedParams, usage: tallied.usage, deliveredSinceUsage: tallied.deliveredSinceUsage };
}


async function* withDone(chunks: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  yield* chunks;
  yield '[DONE]';
}
