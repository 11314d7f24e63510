import { startGateway, type TestGateway } from './start-gateway.js';
import { postgresSchemaUrl } from './test-databases.js';

/** Two gateways in this process on one PostgreSQL schema, as two machines behind a load balancer. */
export interface SharedStoreGateways {
  first: TestGateway;
  second: TestGateway;
  /** The schema's connection string, for a test that reads the store's rows itself. */
  databaseUrl: string;
  /** Closes both gateways, then drops the schema. */
  close(): Promise<void>;
}

/**
 * Starts two gateways on a fresh PostgreSQL schema (test-databases.ts `postgresSchemaUrl`), each with its
 * own data directory and API key (a key of the same default account), as separate machines sharing one store
 * would have. They start one after the other: the first migrates the schema. When either fails to start,
 * whatever did start is closed and the schema dropped before the error is thrown.
 *
 * @example
 * let gateways: SharedStoreGateways;
 * before(async () => (gateways = await startSharedStoreGateways({ config, redisUrl })));
 * after(() => gateways?.close());
 * test('one limit across both', async () => {
 *   const { first, second } = gateways;
 *   // a key created through first.adminKey works on second.origin
 * });
 */
export async function startSharedStoreGateways(
  options: Omit<NonNullable<Parameters<typeof startGateway>[0]>, 'databaseUrl' | 'dataDir'> = {},
): Promise<SharedStoreGateways> {
  const schema = await postgresSchemaUrl();
  const started: TestGateway[] = [];
  const closeAll = async () => {
    const closed = await Promise.allSettled(started.map((gateway) => gateway.close()));
    await schema.cleanup();
    const failed = closed.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    for (let index = 0; index < 2; index++) started.push(await startGateway({ ...options, databaseUrl: schema.url }));
  } catch (error) {
    // The start's error is the one worth reporting; a failed clean-up after it would only hide it.
    await closeAll().catch(() => {});
    throw error;
  }
  const [first, second] = started as [TestGateway, TestGateway];
  return { first, second, databaseUrl: schema.url, close: closeAll };
}
