import type { Logger } from 'pino';
import type { LimitStore, Reservation } from './limit-store.js';

export interface LeaseRenewals {
  /** Starts renewing the reservation's concurrency leases (if it has any) until `stop`. */
  start(reservation: Reservation): void;
  /** Stops renewing; call it when the request settles. Safe to call for a reservation never started. */
  stop(reservation: Reservation): void;
}

/**
 * Keeps the concurrency leases of running requests alive. A lease lives only `store.leaseTtlMs`, so the
 * slots of an instance that died are free again within that time; a running request renews its own every
 * third of the TTL, so it survives two failed renewals in a row (a Redis hiccup) before its lease lapses.
 * One timer per running request with a concurrency limit; timers do not keep the process alive.
 */
export function createLeaseRenewals(store: LimitStore, logger: Logger): LeaseRenewals {
  const timers = new Map<Reservation, NodeJS.Timeout>();
  const intervalMs = Math.max(1, Math.floor(store.leaseTtlMs / 3));
  const stop = (reservation: Reservation) => {
    clearInterval(timers.get(reservation));
    timers.delete(reservation);
  };
  const renew = async (reservation: Reservation) => {
    try {
      const held = await store.renew(reservation);
      if (held || !timers.has(reservation)) return;
      // Lapsed (Redis was out longer than the TTL): taking the slot back could overrun the limit, so the
      // request runs on without one.
      stop(reservation);
      logger.warn({ lease: reservation.leaseId }, 'a running request lost its concurrency slot: its lease expired before it could be renewed');
    } catch (error) {
      logger.warn({ err: error, lease: reservation.leaseId }, 'renewing a concurrency lease failed; retrying at the next interval');
    }
  };
  return {
    start(reservation) {
      if (!reservation.scopes.some(({ limits }) => limits.concurrent_requests !== undefined)) return;
      const timer = setInterval(() => void renew(reservation), intervalMs);
      timer.unref();
      timers.set(reservation, timer);
    },
    stop,
  };
}
