import { GatewayError } from '../../core/gateway-error.js';
import type { UsageListPosition } from '../../usage/usage-store.js';

/**
 * The `next_before` / `before` cursor of the recent requests list: the last record's time and ID, as
 * `<unix ms>_<id>`. Opaque to clients; readable here so a forged one is only ever a different position.
 */
export function encodeUsageCursor(position: UsageListPosition): string {
  return `${position.createdAt}_${position.id}`;
}

export function decodeUsageCursor(cursor: string): UsageListPosition {
  const match = /^(\d{1,15})_(use_[0-9a-f]{1,64})$/.exec(cursor);
  if (!match) throw new GatewayError('invalid_request', `'before' is not a cursor this API returned: pass a \`next_before\` value.`, { param: 'before' });
  return { createdAt: Number(match[1]), id: match[2] };
}
