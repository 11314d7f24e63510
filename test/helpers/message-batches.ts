import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import Anthropic from '@anthropic-ai/sdk';
import type { GatewayConfig } from '../../server/config/config-schema.js';
import { testConfig, type TestGateway } from './start-gateway.js';

type Batch = Anthropic.Messages.MessageBatch;

/** Batches looked for often, so that tests wait little; the built-in model answers at once. */
export const batchTestConfig = (batches: Partial<GatewayConfig['batches']> = {}, chunkDelayMs = 0): GatewayConfig => ({
  ...testConfig,
  providers: testConfig.providers.map((provider) => ({ ...provider, chunk_delay_ms: chunkDelayMs })),
  batches: { ...testConfig.batches, poll_interval_ms: 50, lease_seconds: 2, ...batches },
});

/** Polls the batch until it has ended. */
export async function ended(client: Anthropic, id: string, timeoutMs = 20_000): Promise<Batch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await client.messages.batches.retrieve(id);
    if (batch.processing_status === 'ended') return batch;
    assert.ok(Date.now() < deadline, `batch ${id} still ${batch.processing_status} after ${timeoutMs} ms: ${JSON.stringify(batch.request_counts)}`);
    await sleep(50);
  }
}

/** Every result of the batch, by custom_id. */
export async function resultsOf(client: Anthropic, id: string): Promise<Map<string, Anthropic.Messages.MessageBatchResult>> {
  const results = new Map<string, Anthropic.Messages.MessageBatchResult>();
  for await (const line of await client.messages.batches.results(id)) {
    assert.ok(!results.has(line.custom_id), `one result per request: ${line.custom_id} twice`);
    results.set(line.custom_id, line.result);
  }
  return results;
}


/** The official SDK on the gateway as `key`, retries off so every call is the test's. */
export const batchClient = (gateway: Pick<TestGateway, 'origin'>, key: string) => new Anthropic({ apiKey: key, baseURL: gateway.origin, maxRetries: 0 });

/** A Messages request's params. */
export const ask = (text: string, model = 'builtin/echo') => ({ model, max_tokens: 64, messages: [{ role: 'user' as const, content: text }] });
