import type { AccessPolicy } from '../access/access-policy.js';
import type { AttemptObserver } from './attempt-observer.js';
import type { RoutingConfig } from '../config/config-schema.js';
import { GatewayError } from './gateway-error.js';
import { classifyFailure } from './classify-failure.js';
import { DeploymentHealth } from './deployment-health.js';
import type { Deployment, ModelRegistry, RegisteredModel } from './model-registry.js';
import { pickWeighted } from './pick-deployment.js';
import { rendezvousOrder } from './rendezvous-order.js';
import type { RouteTarget } from './route-target.js';

/** What a routed request's attempts came to: the value of the one that resolved, and where it went. */
export interface Routed<T> {
  target: RouteTarget;
  value: T;
}

export interface RouterOptions<Observer extends AttemptObserver> {
  settings: RoutingConfig;
  health?: DeploymentHealth;
  random?: () => number;
  /**
   * Told about every attempt and, by the routed call, every answer (metrics, tracing, the log):
   * core/call-observer.ts. The router knows only the attempts' half (attempt-observer.ts).
   */
  observer?: Observer;
}

/**
 * Runs one client request against a model's deployments, then its fallbacks. `attempt` must resolve only
 * once the upstream's answer has started (the first event is in hand) and before anything reached the
 * client: a failure up to then can be retried; after it, never.
 *
 * Per model: up to `max_attempts` tries. Each try picks by weight among healthy deployments, preferring
 * ones not yet tried for this request; retrying a deployment already tried waits (exponential backoff
 * with jitter, or the upstream's `retry-after` when it is at most `max_retry_after_ms`). Cooling-down
 * deployments are skipped while anything in the chain is healthy; when nothing is, the one whose
 * cool-down ends soonest is tried rather than failing without trying.
 *
 * A request of a session (core/session-key.ts) to a model with `session_affinity` picks in the session's
 * own order (rendezvous-order.ts) instead of at random: its first choice while that is healthy, else the
 * next, so that every turn of the session finds the provider's prompt cache it warmed.
 */
export class Router<Observer extends AttemptObserver = AttemptObserver> {
  private readonly settings: RoutingConfig;
  private readonly health: DeploymentHealth;
  private readonly random: () => number;
  /** Also told, by the routed call (route-call.ts), about the answer that won. */
  readonly observer: Partial<Observer>;

  constructor(
    private readonly registry: ModelRegistry,
    options: RouterOptions<Observer>,
  ) {
    this.settings = options.settings;
    this.health = options.health ?? new DeploymentHealth(options.settings);
    this.random = options.random ?? Math.random;
    this.observer = options.observer ?? {};
  }

  /**
   * Called by the routed call only (route-call.ts), so that every operation is routed and observed alike:
   * the value of the first attempt that resolved, and the target it went to.
   * Fallbacks the caller may not use are left out of the chain: a fallback must not serve a key what it
   * could not ask for by name. `sessionKey` is the request's session, if it names one.
   */
  async route<T>(model: RegisteredModel, attempt: (target: RouteTarget) => Promise<T>, signal: AbortSignal, access: AccessPolicy, sessionKey?: string): Promise<Routed<T>> {
    const chain = model.fallbacks.length === 0 ? [model] : [model, ...this.permittedFallbacks(model, access)];
    const lastResort = !chain.some((candidate) => candidate.deployments.some((deployment) => !this.health.isCoolingDown(deployment.key)));
    let lastError: unknown;
    let attemptNumber = 0;
    for (const candidate of chain) {
      /** Deployments tried for this request, with the `retry-after` each asked for. */
      const tried = new Map<Deployment, number | undefined>();
      const excluded = new Set<Deployment>();
      const sessionOrder = sessionKey !== undefined && candidate.sessionAffinity && candidate.deployments.length > 1 ? rendezvousOrder(candidate.deployments, sessionKey) : undefined;
      for (let n = 0; n < this.settings.max_attempts; n++) {
        const deployment = this.choose(candidate, tried, excluded, lastResort, sessionOrder);
        if (!deployment) break;
        if (tried.has(deployment)) {
          const wait = this.waitBeforeRetry(n, tried.get(deployment));
          if (wait === undefined) break;
          await sleep(wait, signal);
        }
        attemptNumber += 1;
        const target = { model: candidate, deployment };
        const watch = this.observer.onAttempt?.({ target, attempt: attemptNumber, fallback: candidate !== model });
        try {
          const value = await (watch?.run ? watch.run(() => attempt(target)) : attempt(target));
          this.health.recordSuccess(deployment.key);
          return { target, value };
        } catch (error) {
          signal.throwIfAborted();
          const verdict = classifyFailure(error);
          watch?.failed?.({ error, verdict });
          if (verdict === 'stop') throw error;
          const retryAfterMs = error instanceof GatewayError ? error.upstream?.retryAfterMs : undefined;
          this.health.recordFailure(deployment.key, retryAfterMs);
          lastError = error;
          tried.set(deployment, retryAfterMs);
          if (verdict === 'next') excluded.add(deployment);
        }
      }
    }
    throw lastError ?? new GatewayError('overloaded', `Every deployment of '${model.id}' is cooling down after failures; try again shortly.`, { status: 503 });
  }

  /** The model's fallbacks that exist and that the caller may use, in order. */
  private permittedFallbacks(model: RegisteredModel, access: AccessPolicy): RegisteredModel[] {
    return model.fallbacks.map((id) => this.registry.find(id)).filter((fallback): fallback is RegisteredModel => fallback !== undefined && access.permitsModel(fallback.id));
  }

  /**
   * Untried healthy deployments first, then tried healthy ones (a retry), never excluded ones; by weight at
   * random, or the first in the session's order. One pass over the deployments: every request chooses.
   */
  private choose(model: RegisteredModel, tried: Map<Deployment, unknown>, excluded: Set<Deployment>, lastResort: boolean, sessionOrder: Deployment[] | undefined): Deployment | undefined {
    const order = sessionOrder ?? model.deployments;
    if (lastResort) {
      const soonest = order.filter((deployment) => !excluded.has(deployment)).sort((a, b) => this.health.coolingUntil(a.key) - this.health.coolingUntil(b.key));
      return soonest.find((deployment) => !tried.has(deployment)) ?? soonest[0];
    }
    const healthy: Deployment[] = [];
    const untried: Deployment[] = [];
    for (const deployment of order) {
      if (excluded.has(deployment)) continue;
      const triedBefore = tried.has(deployment);
      if (!triedBefore && this.health.isCoolingDown(deployment.key)) continue;
      healthy.push(deployment);
      if (!triedBefore) untried.push(deployment);
    }
    const candidates = untried.length > 0 ? untried : healthy;
    return sessionOrder ? candidates[0] : pickWeighted(candidates, this.random);
  }

  /** Milliseconds to wait before retry `n` (1-based) of the same deployment, or undefined to give up on it. */
  private waitBeforeRetry(n: number, retryAfterMs: number | undefined): number | undefined {
    if (retryAfterMs !== undefined) return retryAfterMs <= this.settings.max_retry_after_ms ? retryAfterMs : undefined;
    const exponential = Math.min(this.settings.max_backoff_ms, this.settings.backoff_ms * 2 ** (n - 1));
    return exponential * (0.5 + this.random() / 2);
  }
}

/** setTimeout that ends early, rejecting, when the client goes away. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
