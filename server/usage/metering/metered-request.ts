import type { StreamedSoFar } from '../../core/streamed-so-far.js';
import type { Usage } from '../../core/internal-representation.js';
import type { Reservation } from '../../limits/limit-store.js';
import type { PricedUsage } from '../cost.js';

/**
 * What metering keeps about one metered request, in its request context (`context.metering`): set up when
 * metering begins (create-metering.ts), filled in by the routed call's answer (meter-answers.ts) and the
 * limits step, and read when the response is over.
 */
export interface MeteredRequest {
  reservation?: Reservation;
  /** The answer the routed call began; undefined when none began (a refusal, an error before any answer). */
  answer?: MeteredAnswer;
  /** Set when the response is over. */
  outcome?: Outcome;
  /** Set when its client left before the answer was complete: its row waits for the drain. */
  abandoned?: boolean;
}

/** What metering reads of an answer, live: a stream's usage and images grow as it goes. */
export interface MeteredAnswer {
  /** The usage the upstream reported so far (or the gateway counted); undefined when none was reported. */
  usage(): Usage | undefined;
  /** Images the answer holds or has made so far. */
  imageCount(): number;
  /**
   * Whether the upstream's answer came whole: a JSON answer, or a stream read to its end, whether or not
   * the client was still there. A client that left an answer that did not is charged its worst case.
   */
  complete: boolean;
  /**
   * A generated stream's tally (core/tally-stream.ts): what a client that left a stream that did not end is
   * charged at least (abandoned-usage.ts).
   */
  streamed?: StreamedSoFar;
}

/** What a model request used, once its response is over: what its ledger row says and its limits settle to. */
export interface Outcome {
  model: string | null;
  deployment: string | null;
  usage: Usage;
  imageCount: number;
  costUsd: number;
  /** How it was priced (usage/cost.ts), kept in its ledger row beside the cost. */
  priced: Omit<PricedUsage, 'costUsd'>;
}
