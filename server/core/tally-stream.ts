import { streamEventCharacters } from './generated-characters.js';
import type { StreamEvent, Usage } from './internal-representation.js';

/**
 * What a stream has reported and sent so far, for metering a stream cut short (metering/abandoned-usage.ts):
 * the latest usage the upstream reported, and the characters of generated content sent on since that
 * report (all of them when there was none), which the report cannot have counted.
 *
 * Content is counted when the consumer comes back for the next event or frame, that is once it has sent
 * this one on (or, for a client that left, dropped it): a consumer that stops never asks again, so what it
 * took but did not pass on is not counted. A usage report that arrives with content (a Gemini chunk) is
 * taken after that content is counted, as it covers it.
 */
export class StreamTally {
  private reported: Usage | undefined;
  private delivered = 0;
  private deliveredAtReport = 0;

  report(usage: Usage): void {
    this.reported = usage;
    this.deliveredAtReport = this.delivered;
  }

  deliver(characters: number): void {
    this.delivered += characters;
  }

  usage(): Usage | undefined {
    return this.reported;
  }

  deliveredSinceUsage(): number {
    return this.delivered - this.deliveredAtReport;
  }
}

/** A translated stream, passed on unchanged, with its tally (above). */
export interface TalliedStream {
  events: AsyncIterable<StreamEvent>;
  /** The usage the stream has reported so far (complete once the stream is done). */
  usage(): Usage | undefined;
  deliveredSinceUsage(): number;
}

/**
 * Tallies a translated stream as it goes by (see {@link StreamTally}); every streaming pass-through does the same.
 * A plain iterator, not an async generator: every event of every translated stream passes here, and a
 * generator's extra promises and turns per event are work for nothing (bench/README.md, async stages).
 */
export function tallyStream(source: AsyncIterable<StreamEvent>): TalliedStream {
  const tally = new StreamTally();
  const events: AsyncIterable<StreamEvent> = {
    [Symbol.asyncIterator]: () => {
      const iterator = source[Symbol.asyncIterator]();
      /** The characters of the event handed out last: counted once the consumer asks for the next. */
      let handedOut = 0;
      return {
        next: () => {
          tally.deliver(handedOut);
          handedOut = 0;
          return iterator.next().then((result) => {
            if (result.done) return result;
            const event = result.value;
            if (event.type === 'usage') tally.report(event.usage);
            handedOut = streamEventCharacters(event);
            return result;
          });
        },
        // A consumer that stops never asks again: what it took last is not counted.
        return: async (): Promise<IteratorReturnResult<undefined>> => {
          await iterator.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { events, usage: () => tally.usage(), deliveredSinceUsage: () => tally.deliveredSinceUsage() };
}
