import assert from 'node:assert/strict';
import type { components } from '../../generated/api.js';
import type { GatewayConfig } from '../../server/config/config-schema.js';
import { startGateway, type TestGateway } from './start-gateway.js';
import type { gatewayDatabases } from './test-databases.js';

type UsageRecord = components['schemas']['UsageRecord'];

/** One of `gatewayDatabases`: opens a fresh store of its kind. */
type GatewayDatabase = (typeof gatewayDatabases)[number][1];

/** A gateway on a fresh store of the given kind; closing it drops that store too. */
export async function startGatewayOnFreshStore(database: GatewayDatabase, config: GatewayConfig): Promise<TestGateway> {
  const store = await database();
  const gateway = await startGateway({ config, databaseUrl: store.url });
  return {
    ...gateway,
    close: async () => {
      await gateway.close();
      await store.cleanup();
    },
  };
}

/** Every ledger row the key may see, through its own usage records. */
export async function usageRecordsOf(gateway: Pick<TestGateway, 'origin'>, key: string): Promise<UsageRecord[]> {
  const response = await fetch(`${gateway.origin}/v1/usage/records?limit=1000`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { data: UsageRecord[] }).data;
}

/** The ledger rows of a batch (rows are written with their outcomes). */
export async function ledgerRowsOfBatch(gateway: Pick<TestGateway, 'origin'>, key: string, batchId: string): Promise<UsageRecord[]> {
  return (await usageRecordsOf(gateway, key)).filter((row) => row.batch_id === batchId);
}
