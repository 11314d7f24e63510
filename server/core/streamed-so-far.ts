import type { Usage } from './internal-representation.js';

/** What a streamed answer has reported and sent so far (core/tally-stream.ts). */
export interface StreamedSoFar {
  usage(): Usage | undefined;
  deliveredSinceUsage(): number;
}
