import { randomUUID } from 'node:crypto';
import { describeRefusal, pickRefusal } from './describe-refusal.js';
import { defaultLeaseTtlMs, type LimitStore, type Reservation, type ReserveRequest, type ReserveResult } from './limit-store.js';
import { amountWithGrant, grantOutput, isOverLimit, planReserveChecks, reserveAmountsOf, reservedTotals, type LimitCheck } from './plan-reserve-checks.js';
import { leaseKeysOf } from './lease-keys.js';
import { planSettleSteps } from './plan-settle-steps.js';

export interface MemoryLimitStoreOptions {
  /** How long a concurrency slot is held unless renewed or settled; `defaultLeaseTtlMs` (15 s) by default. */
  leaseTtlMs?: number;
}

interface Counter {
  value: number;
  expiresAt: number;
}

/** How often, at most, expired windows and leases are swept out. */
const sweepIntervalMs = 60_000;

/**
 * Limit counters in this process's memory, for a single gateway instance. Node runs one callback at a
 * time, so `reserve` checks and counts synchronously (no `await` in between) and is therefore atomic.
 * Expired windows and leases are dropped at most once a minute, so memory follows the active scopes.
 */
export class MemoryLimitStore implements LimitStore {
  private readonly counters = new Map<string, Counter>();
  /** Concurrency sets: lease ID → expiry, per scope. */
  private readonly leases = new Map<string, Map<string, number>>();
  private readonly settled = new WeakSet<Reservation>();
  readonly leaseTtlMs: number;
  private lastSweep = -Infinity;

  constructor(options: MemoryLimitStoreOptions = {}) {
    this.leaseTtlMs = options.leaseTtlMs ?? defaultLeaseTtlMs;
  }

  async reserve(request: ReserveRequest): Promise<ReserveResult> {
    const now = request.now ?? Date.now();
    this.sweepIfDue(now);
    const amounts = reserveAmountsOf(request);
    const checks = planReserveChecks(request.scopes, amounts, now, this.leaseTtlMs);
    const used = checks.map((check) => this.used(check, now));
    const grant = request.flexibleOutput ? grantOutput(checks, used, request.flexibleOutput.upTo) : 0;
    const refusal = pickRefusal(
      checks.flatMap((check, i) => (isOverLimit(check, used[i]!, grant) ? [describeRefusal(check, used[i]!, now, amountWithGrant(check, grant))] : [])),
    );
    if (refusal) return { ok: false, refusal };

    const leaseId = randomUUID();
    for (const check of checks) this.count(check, amountWithGrant(check, grant), leaseId, now);
    const scopes = request.scopes.map(({ id, limits }) => ({ id, limits: { ...limits } }));
    const granted = request.flexibleOutput ? { grantedOutputTokens: grant } : {};
    return { ok: true, reservation: { scopes, ...reservedTotals(amounts, grant), ...granted, reservedAt: now, leaseId } };
  }

  async settle(reservation: Reservation, actual: { tokens: number; costUsd: number }, now = Date.now()): Promise<void> {
    if (this.settled.has(reservation)) return;
    this.settled.add(reservation);
    for (const step of planSettleSteps(reservation, actual)) {
      switch (step.kind) {
        case 'release':
          this.leases.get(step.key)?.delete(reservation.leaseId);
          break;
        case 'adjust': {
          const counter = this.counters.get(step.key);
          if (counter) counter.value = Math.max(0, counter.value + step.delta);
          break;
        }
        case 'add': {
          const counter = this.counters.get(step.key);
          if (counter) counter.value = Math.max(0, counter.value + step.amount);
          else this.counters.set(step.key, { value: Math.max(0, step.amount), expiresAt: now + step.ttlMs });
          break;
        }
      }
    }
    this.sweepIfDue(now);
  }

  async renew(reservation: Reservation, now = Date.now()): Promise<boolean> {
    if (this.settled.has(reservation)) return false;
    let held = true;
    for (const key of leaseKeysOf(reservation)) {
      const leases = this.leases.get(key);
      const expiresAt = leases?.get(reservation.leaseId);
      if (leases && expiresAt !== undefined && expiresAt > now) leases.set(reservation.leaseId, now + this.leaseTtlMs);
      else held = false;
    }
    return held;
  }

  async close(): Promise<void> {
    this.counters.clear();
    this.leases.clear();
  }

  private used(check: LimitCheck, now: number): number {
    if (check.kind !== 'lease') return this.counters.get(check.key)?.value ?? 0;
    const leases = this.leases.get(check.key);
    if (!leases) return 0;
    for (const [leaseId, expiresAt] of leases) if (expiresAt <= now) leases.delete(leaseId);
    return leases.size;
  }

  private count(check: LimitCheck, amount: number, leaseId: string, now: number): void {
    switch (check.kind) {
      case 'counter': {
        const counter = this.counters.get(check.key);
        if (counter) counter.value += amount;
        else this.counters.set(check.key, { value: amount, expiresAt: now + check.ttlMs });
        break;
      }
      case 'lease': {
        const leases = this.leases.get(check.key) ?? new Map<string, number>();
        leases.set(leaseId, now + check.ttlMs);
        this.leases.set(check.key, leases);
        break;
      }
    }
  }

  private sweepIfDue(now: number): void {
    if (now - this.lastSweep < sweepIntervalMs) return;
    this.lastSweep = now;
    for (const [key, counter] of this.counters) if (counter.expiresAt <= now) this.counters.delete(key);
    for (const [key, leases] of this.leases) {
      for (const [leaseId, expiresAt] of leases) if (expiresAt <= now) leases.delete(leaseId);
      if (leases.size === 0) this.leases.delete(key);
    }
  }
}
