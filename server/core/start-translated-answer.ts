import { collectStream } from './collect-stream.js';
import { gateCapabilities, type DroppableFeature } from './gate-capabilities.js';
import { prefetchFirstEvent } from './prefetch-first-event.js';
import type { RouteTarget } from './route-target.js';
import type { ModelRequest, ModelResponse, StreamEvent } from './internal-representation.js';

/** A translated answer that has begun upstream but of which the client has seen nothing yet. */
export type TranslatedAnswer = { dropped: DroppableFeature[] } & (
  | { kind: 'collected'; response: ModelResponse }
  | { kind: 'started'; events: AsyncIterable<StreamEvent> }
);

/**
 * One routing attempt through the internal representation, shared by every client protocol: fit the
 * request to the target model, call its provider, and resolve once the answer has begun. A non-stream
 * answer is collected whole here, so it stays retryable throughout; a stream resolves at its first event
 * that is more than bookkeeping (a `start` says the upstream accepted, not that an answer is coming).
 */
export async function startTranslatedAnswer(
  target: RouteTarget,
  clientRequest: ModelRequest,
  options: { stream: boolean; signal: AbortSignal; params: Parameters<typeof gateCapabilities>[2]['params'] },
): Promise<TranslatedAnswer> {
  const { request, dropped } = gateCapabilities(target.model, clientRequest, { stream: options.stream, params: options.params });
  const events = target.deployment.provider.stream(
    { ...request, model: target.model.id },
    { upstreamModel: target.deployment.upstreamModel, signal: options.signal },
  );
  if (!options.stream) return { kind: 'collected', response: await collectStream(events), dropped };
  return { kind: 'started', events: await prefetchFirstEvent(events, (event) => event.type !== 'start'), dropped };
}
