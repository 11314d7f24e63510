import type { Logger } from 'pino';
import type { CallObserver } from '../core/call-observer.js';

/** The routed calls' failed upstream attempts, each a warning with the router's verdict (core/call-observer.ts). */
export function logFailedAttempts(logger: Logger): CallObserver {
  return {
    onAttempt: ({ target, attempt }) => ({
      failed: ({ error, verdict }) => {
        logger.warn(
          { model: target.model.id, deployment: target.deployment.key, attempt, verdict, error: error instanceof Error ? error.message : String(error) },
          'upstream attempt failed',
        );
      },
    }),
  };
}
