import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Per-minute limits count in fixed UTC minutes: a burst that starts late in one may straddle two windows and
 * be allowed twice the limit. Waits, if need be, until a new minute has begun.
 */
export async function awayFromMinuteEdge(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await sleep(60_000 - intoMinute + 50);
}
