import type { RoutingConfig } from '../config/config-schema.js';

interface HealthRecord {
  consecutiveFailures: number;
  coolingUntil: number;
}

/**
 * Per-instance memory of which deployments are failing. After `failures_before_cooldown` consecutive
 * failures, or a 429 that names a wait, a deployment is skipped until its cool-down ends; one success
 * clears the record. Each gateway instance learns on its own: the cost is a few extra failed attempts
 * per instance, and the benefit is no shared state on the hot path.
 */
export class DeploymentHealth {
  private readonly records = new Map<string, HealthRecord>();

  constructor(
    private readonly settings: Pick<RoutingConfig, 'failures_before_cooldown' | 'cooldown_ms'>,
    private readonly now: () => number = Date.now,
  ) {}

  isCoolingDown(key: string): boolean {
    return (this.records.get(key)?.coolingUntil ?? 0) > this.now();
  }

  /** When the cool-down ends (0 if the deployment is healthy): the soonest is the best last resort. */
  coolingUntil(key: string): number {
    return this.records.get(key)?.coolingUntil ?? 0;
  }

  recordSuccess(key: string): void {
    this.records.delete(key);
  }

  recordFailure(key: string, retryAfterMs?: number): void {
    const record = this.records.get(key) ?? { consecutiveFailures: 0, coolingUntil: 0 };
    record.consecutiveFailures += 1;
    const now = this.now();
    if (record.consecutiveFailures >= this.settings.failures_before_cooldown) {
      record.coolingUntil = Math.max(record.coolingUntil, now + this.settings.cooldown_ms);
    }
    if (retryAfterMs !== undefined) record.coolingUntil = Math.max(record.coolingUntil, now + retryAfterMs);
    this.records.set(key, record);
  }
}
