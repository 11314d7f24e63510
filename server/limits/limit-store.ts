import type { Limits } from '../access/access-types.js';

/** One party whose limits a request counts against: an account, or one of its keys. */
export interface LimitScope {
  /** Names the scope in counters and in refusal messages, e.g. `account:acct_1` or `key:key_2`. */
  id: string;
  limits: Limits;
}

export interface ReserveRequest {
  /** Every scope the request counts against; it is admitted only if all of them have room. */
  scopes: LimitScope[];
  /** Tokens reserved against tokens_per_minute whatever is granted: the prompt estimate plus any output cap the client named. */
  tokens: number;
  /** US dollars reserved against the spend limits whatever is granted: the worst case of `tokens` (and images) at the model's prices. */
  costUsd?: number;
  /**
   * For a request that names no output cap: the gateway grants one, at most `upTo` tokens and no more than
   * the room every tokens_per_minute scope has left after `tokens`, and reserves it as tokens and, at
   * `usdPerToken`, as spend. The grant is what the upstream is then told to stay within.
   */
  flexibleOutput?: { upTo: number; usdPerToken: number };
  /** Milliseconds since the epoch; defaults to `Date.now()`. Tests pass it to move between windows. */
  now?: number;
}

/**
 * What `settle` needs to finish a reservation. Plain data: the window keys are derived again from
 * `reservedAt`, so the request is charged to the minute, day and month in which it was admitted.
 */
export interface Reservation {
  readonly scopes: readonly LimitScope[];
  /** Tokens reserved against tokens_per_minute, the granted output included. */
  readonly tokens: number;
  /** Micro-dollars reserved against the spend limits, the granted output included. */
  readonly costMicros: number;
  /** The output cap granted to a request with `flexibleOutput`; undefined without it. */
  readonly grantedOutputTokens?: number;
  readonly reservedAt: number;
  /** Identifies this request's concurrency slot in every scope. */
  readonly leaseId: string;
}

/** Why a request was not admitted, ready for a 429 with `Retry-After`. */
export interface LimitRefusal {
  scopeId: string;
  limit: keyof Limits;
  /** Whole seconds, >= 1. */
  retryAfterSeconds: number;
  /**
   * False when waiting cannot help: the request alone needs more than the limit allows (more tokens than
   * tokens_per_minute, a worst-case cost above a spend limit, or a limit of 0).
   */
  retryable: boolean;
  message: string;
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; refusal: LimitRefusal };

/**
 * How long a concurrency lease lives unless renewed. Short, so the slots of an instance that died (and so
 * never settles) are free again within it; a running request keeps its slot by renewing (lease-renewals.ts).
 */
export const defaultLeaseTtlMs = 15_000;

/**
 * Counters behind the limits of {@link Limits}. `reserve` checks every limit of every scope and, only if
 * all pass, counts the request against all of them in one atomic step, so concurrent requests can never
 * overrun a limit.
 *
 * @example
 * const result = await store.reserve({ scopes: [{ id: 'key:key_2', limits: { requests_per_minute: 60 } }], tokens: 1200 });
 * if (!result.ok) throw tooManyRequests(result.refusal);
 * try { ... } finally { await store.settle(result.reservation, { tokens: used, costUsd }); }
 */
export interface LimitStore {
  reserve(request: ReserveRequest): Promise<ReserveResult>;
  /**
   * Once per reservation, when the request is over (success or failure): releases the concurrency slot and
   * corrects the minute's tokens and the day's and month's spend from what was reserved to what was used
   * (zero for a request that never reached an upstream). A second call with the same reservation object
   * does nothing.
   */
  settle(reservation: Reservation, actual: { tokens: number; costUsd: number }, now?: number): Promise<void>;
  /** How long a concurrency lease lives from its reserve or its last renewal. */
  readonly leaseTtlMs: number;
  /**
   * Extends the reservation's concurrency leases to `now + leaseTtlMs`, but only those still held: a lease
   * that expired or was settled is not brought back (its slot may be someone else's by now). Resolves to
   * false when any lease was no longer held.
   */
  renew(reservation: Reservation, now?: number): Promise<boolean>;
  close(): Promise<void>;
}
