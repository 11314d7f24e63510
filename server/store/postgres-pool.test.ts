// The PostgreSQL pool against the real server, reached through a proxy the test cuts: lost connections
// (pg_terminate_backend, a reset, a blackhole) reject the queries they hold as "store unavailable", never
// end the process, and leave a pool that works as soon as the server is back.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { startPostgresProxy, type PostgresProxy } from '../../test/helpers/postgres-proxy.js';
import { postgresUrl } from '../../test/helpers/test-databases.js';
import { openDatabase, type GatewayDb } from './database.js';
import { isStoreUnavailable } from './store-unavailable.js';

let proxy: PostgresProxy;
let admin: pg.Client;
before(async () => {
  proxy = await startPostgresProxy();
  admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
});
after(async () => {
  await admin?.end();
  await proxy?.close();
});

/** A store through the proxy, under an application name of its own so the test can find its server processes. */
async function openThroughProxy(options: { connectTimeoutMs?: number; queryTimeoutMs?: number } = {}) {
  const applicationName = `pool-test-${randomUUID()}`;
  const url = new URL(proxy.urlThrough(postgresUrl));
  url.searchParams.set('application_name', applicationName);
  const db = await openDatabase({
    dataDir: '',
    databaseUrl: url.toString(),
    databaseConnectTimeoutMs: options.connectTimeoutMs ?? 1_000,
    databaseQueryTimeoutMs: options.queryTimeoutMs ?? 1_000,
  });
  const terminateBackends = async () => {
    // Waits (up to 2 s) for each server process to end, so the test knows the connections are gone.
    const { rows } = await admin.query<{ ended: boolean }>('SELECT pg_terminate_backend(pid, 2000) AS ended FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
    return rows.length;
  };
  return { db, terminateBackends };
}

const selectOne = async (db: GatewayDb) => (await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows[0]?.one;

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail('the query succeeded while the database was cut off'),
    (error: unknown) => error,
  );
}

test('pg_terminate_backend on idle and busy connections: the process lives, the busy query is "unavailable", the pool reconnects', async () => {
  const { db, terminateBackends } = await openThroughProxy({ queryTimeoutMs: 10_000 });
  try {
    await Promise.all([selectOne(db), selectOne(db), selectOne(db)]);
    // Idle connections first: pg reports their loss on the pool, which ended the process when unheard.
    assert.ok((await terminateBackends()) >= 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await selectOne(db), 1);

    const busy = failure(sql`SELECT pg_sleep(5)`.execute(db));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await terminateBackends();
    const error = await busy;
    assert.ok(isStoreUnavailable(error), `not taken for an outage: ${String(error)}`);
    assert.equal(await selectOne(db), 1);
  } finally {
    await db.destroy();
  }
});

test('a query the store refuses is not an outage', async () => {
  const { db } = await openThroughProxy();
  try {
    const error = await failure(sql`SELECT * FROM no_such_table_anywhere`.execute(db));
    assert.equal(isStoreUnavailable(error), false);
    assert.equal(isStoreUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })), false, "an error not of the store's client");
  } finally {
    await db.destroy();
  }
});

test('reset and blackhole: queries fail within the timeouts, as "unavailable", and work again after restore', async () => {
  const { db } = await openThroughProxy({ connectTimeoutMs: 500, queryTimeoutMs: 500 });
  try {
    assert.equal(await selectOne(db), 1);
    for (const mode of ['reset', 'blackhole'] as const) {
      proxy.cut(mode);
      try {
        // The first query finds a pooled connection (frozen in a blackhole), the second needs a new one.
        for (const attempt of ['pooled connection', 'new connection']) {
          const started = Date.now();
          const error = await failure(selectOne(db));
          assert.ok(isStoreUnavailable(error), `${mode}, ${attempt}: not taken for an outage: ${String(error)}`);
          assert.ok(Date.now() - started < 2_000, `${mode}, ${attempt}: failed only after ${Date.now() - started} ms`);
        }
      } finally {
        proxy.restore();
      }
      assert.equal(await selectOne(db), 1, `works again after the ${mode}`);
    }
  } finally {
    await db.destroy();
  }
});
