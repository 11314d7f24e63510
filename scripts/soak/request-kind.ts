import type { SoakClients } from './soak-clients.js';

/** One kind of request in the soak's mix. */
export interface RequestKind {
  /** Shown in the report: protocol, call and model. */
  name: string;
  /** Relative share of the load (see request-kinds.ts). */
  weight: number;
  /** Sends one request and reads the whole answer; throws (soak-check.ts) when it is not what it should be. */
  run(clients: SoakClients): Promise<void>;
}

/**
 * The user's text for chat calls. The built-in model echoes it one word per chunk, so its streams are
 * ~40 chunks long, long enough to be cut mid-way by the disconnect kinds.
 */
export const soakPrompt =
  'Plan a three day walking trip through the hills near the coast, with a short list of what to pack, where to ' +
  'sleep each night, and one place to eat on the way back home.';
