import type { ProviderTimeouts } from '../../config/config-schema.js';

/** Resolved upstream time limits in milliseconds. */
export interface Timeouts {
  connectMs: number;
  firstByteMs: number;
  idleMs: number;
}

/**
 * Defaults, documented in the README. First byte is generous because providers always stream from the
 * upstream when they can, but a pass-through non-stream call waits for the whole answer before headers;
 * reasoning models may think for minutes.
 */
export const defaultTimeouts: Timeouts = {
  connectMs: 10_000,
  firstByteMs: 300_000,
  idleMs: 120_000,
};

export function resolveTimeouts(configured: ProviderTimeouts | undefined): Timeouts {
  return {
    connectMs: configured?.connect_ms ?? defaultTimeouts.connectMs,
    firstByteMs: configured?.first_byte_ms ?? defaultTimeouts.firstByteMs,
    idleMs: configured?.idle_ms ?? defaultTimeouts.idleMs,
  };
}
