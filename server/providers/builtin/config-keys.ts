import { z } from 'zod';

/** The config keys only `type: builtin` takes. */
export const builtinConfigKeys = {
  /** Pause between streamed chunks, to look like a real model in a UI. */
  chunk_delay_ms: z.number().int().min(0).max(10_000).optional(),
};
