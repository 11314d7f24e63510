import type { OperationHandler } from '../../../generated/operations.js';
import type { components } from '../../../generated/api.js';

type Checks = components['schemas']['Readiness']['checks'];

/** What readiness asks: each dependency's probe resolves (or rejects) by whether it answers. */
export interface ReadinessProbes {
  store(): Promise<unknown>;
  /** Absent when no Redis is configured. */
  redis?: () => Promise<boolean>;
  draining(): boolean;
}

/** A probe that has not answered by then counts as unreachable: a balancer's probe must not hang on it. */
const probeTimeoutMs = 1_000;

/**
 * `GET /readyz`: 200 while the store and (if configured) Redis answer and the instance is not draining,
 * 503 otherwise, with what failed. Liveness (`/healthz`) stays apart: an unreachable database is not
 * mended by restarting the gateway, so a liveness probe must not fail on it.
 */
export function createReadinessHandler(probes: ReadinessProbes): OperationHandler<'getReadiness'> {
  return async (_req, res) => {
    const [store, redis] = await Promise.all([answers(probes.store), probes.redis && answers(probes.redis)]);
    const checks: Checks = {
      store: store ? 'ok' : 'unreachable',
      redis: redis === undefined ? 'not_configured' : redis ? 'ok' : 'unreachable',
      draining: probes.draining(),
    };
    const ready = checks.store === 'ok' && checks.redis !== 'unreachable' && !checks.draining;
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  };
}

async function answers(probe: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), probeTimeoutMs)));
  try {
    return await Promise.race([probe().then((answer) => answer !== false), timedOut]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
