import { Pool } from 'undici';
import type { GatewayProcess } from './start-gateway-process.js';

/** The models `npm run bench:ledger-scale` spreads its calls over (bench-gateway-config.ts's `bench-chat` upstream). */
export const ledgerScaleModels = ['scale-a', 'scale-b', 'scale-c'] as const;

const prompt = JSON.stringify({ role: 'user', content: 'Count to three.' });

/**
 * Sends `calls` non-streamed chat requests to the gateway, `concurrency` at a time, round-robin over `keys`
 * and {@link ledgerScaleModels}, and resolves with how many it answered 200 (each writes one ledger row).
 * Progress goes to stdout every tenth of the way.
 */
export async function fillLedgerThroughGateway(gateway: Pick<GatewayProcess, 'origin'>, keys: readonly string[], calls: number, concurrency = 64): Promise<number> {
  const pool = new Pool(gateway.origin, { connections: concurrency });
  let next = 0;
  let served = 0;
  let failed = 0;
  const step = Math.max(1, Math.floor(calls / 10));
  const startedAt = performance.now();
  const worker = async () => {
    for (let index = next++; index < calls; index = next++) {
      const model = ledgerScaleModels[index % ledgerScaleModels.length];
      const response = await pool.request({
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[index % keys.length]}` },
        body: `{"model":"${model}","messages":[${prompt}]}`,
      });
      await response.body.dump();
      if (response.statusCode === 200) served++;
      else failed++;
      if ((index + 1) % step === 0) {
        const seconds = (performance.now() - startedAt) / 1000;
        console.log(`  filled ${index + 1} / ${calls} in ${seconds.toFixed(0)} s (${((index + 1) / seconds).toFixed(0)} calls/s, ${failed} not 200)`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await pool.close();
  }
  return served;
}
