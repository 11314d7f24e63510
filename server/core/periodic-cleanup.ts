import type { Logger } from 'pino';

/**
 * Runs a cleanup task (purging expired responses, deleting expired image files) every `intervalMs`. Reads
 * already ignore what expired; this reclaims the space. Failures are logged, never thrown, and the timer
 * does not keep the process alive.
 */
export function startPeriodicCleanup(what: string, task: () => Promise<number>, intervalMs: number, logger: Logger): NodeJS.Timeout {
  const timer = setInterval(() => {
    task()
      .then((removed) => removed > 0 && logger.info({ removed }, `${what}: expired entries removed`))
      .catch((error: unknown) => logger.error({ err: error }, `${what}: cleanup failed`));
  }, intervalMs);
  timer.unref();
  return timer;
}
