import type { Reservation } from './limit-store.js';
import { limitKeys } from './plan-reserve-checks.js';

/** Store-neutral keys of the concurrency sets a reservation holds a lease in (scopes with concurrent_requests). */
export function leaseKeysOf(reservation: Reservation): string[] {
  return reservation.scopes.filter(({ limits }) => limits.concurrent_requests !== undefined).map(({ id }) => limitKeys.leases(id));
}
