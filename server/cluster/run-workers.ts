import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/**
 * The primary of `WORKERS=N`: forks N copies of this process, which share the listening port (Node's
 * cluster hands each new connection to a worker). A worker that dies unexpectedly is replaced; SIGTERM or
 * SIGINT is passed to every worker, each drains its own requests and flushes its usage, and the primary
 * exits 0 once all have exited cleanly (1 if any did not). SIGHUP is passed on too: each worker reloads
 * the config file.
 */
export function runWorkers(count: number, logger: Logger): void {
  let stopping: NodeJS.Signals | undefined;
  let failed = false;
  const fork = () => cluster.fork();
  for (let index = 0; index < count; index++) fork();

  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) {
      // A worker still starting has no handler yet and dies of the signal itself: it held no requests.
      if (code !== 0 && signal !== stopping) failed = true;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0);
      return;
    }
    logger.error({ worker: worker.process.pid, code, signal }, 'worker exited unexpectedly; starting another');
    fork();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = signal;
    logger.info({ signal, workers: count }, 'stopping workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGHUP', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
  });
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
