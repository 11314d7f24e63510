import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { components } from '../../generated/api.js';

type UsageRecord = components['schemas']['UsageRecord'];

/**
 * The usage ledger's row for one request (by the `x-request-id` it was answered with), read through the
 * key's own `GET /v1/usage/records`. Rows are written in batches about once a second, so this polls.
 *
 * @example const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
 */
export async function ledgerRow(origin: string, apiKey: string, requestId: string, timeoutMs = 5_000): Promise<UsageRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${origin}/v1/usage/records?limit=100`, { headers: { authorization: `Bearer ${apiKey}` } });
    const { data } = (await response.json()) as { data: UsageRecord[] };
    const rows = data.filter((row) => row.request_id === requestId);
    if (rows.length > 0) {
      assert.equal(rows.length, 1, `one ledger row per request, got ${rows.length}`);
      return rows[0]!;
    }
    assert.ok(Date.now() < deadline, `no ledger row for ${requestId} within ${timeoutMs} ms`);
    await sleep(100);
  }
}
