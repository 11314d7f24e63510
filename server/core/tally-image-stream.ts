import type { ImageStreamEvent } from './image-types.js';
import type { Usage } from './internal-representation.js';
import type { ImagesSoFar } from './started-answer.js';

/** An image stream, passed on unchanged, with what it has made so far (below). */
export interface TalliedImageStream {
  events: AsyncIterable<ImageStreamEvent>;
  images: ImagesSoFar;
}

/**
 * Tallies an image stream as it goes by: each final image counts as it is made, so that a stream the
 * client leaves early is still billed for what the upstream produced; usage is the whole request's on
 * every final image, so the last one reported stands.
 */
export function tallyImageStream(source: AsyncIterable<ImageStreamEvent>): TalliedImageStream {
  let count = 0;
  let usage: Usage | undefined;
  async function* events(): AsyncGenerator<ImageStreamEvent> {
    for await (const event of source) {
      const completed = event.type === 'completed' || (event.type === 'forwarded' && event.completed);
      if (completed) {
        count += 1;
        if (event.usage) usage = { inputTokens: event.usage.inputTokens, cachedInputTokens: 0, outputTokens: event.usage.outputTokens, reasoningTokens: 0 };
      }
      yield event;
    }
  }
  return { events: events(), images: { count: () => count, usage: () => usage } };
}
