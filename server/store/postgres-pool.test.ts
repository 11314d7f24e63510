// The PostgreSQL pool against the real server, reached through a proxy the test cuts: lost connections
// (pg_terminate_backend, a reset, a blackhole) reject the queries they hold as "store unavailable", never
// end the process, and leave a pool that works as soon as the server is back.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { startPostgresProxy, type PostgresProxy } from '../../test/helpers/postgres-proxy.js';
import { postgresUrl } from '../../test/helpers/test-databases.js';
import type { Database, GatewayDb } from './database.js';
import { createPostgresPool } from './postgres-pool.js';
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

/** A pool through the proxy, under an application name of its own so the test can find its server processes. */
async function openThroughProxy(options: { connectTimeoutMs?: number; queryTimeoutMs?: number } = {}) {
  const applicationName = `pool-test-${randomUUID()}`;
  const url = new URL(proxy.urlThrough(postgresUrl));
  url.searchParams.set('application_name', applicationName);
  const pool = createPostgresPool(pg, url.toString(), { connectTimeoutMs: options.connectTimeoutMs ?? 1_000, queryTimeoutMs: options.queryTimeoutMs ?? 1_000 });
  const db: GatewayDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let removed = 0;
  pool.on('remove', () => (removed += 1));
  /** Ends the pool's server processes and waits until the pool has dropped their clients. */
  const terminateBackends = async () => {
    const removedBefore = removed;
    const { rows } = await admin.query('SELECT pg_terminate_backend(pid, 2000) FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
    for (let waited = 0; removed - removedBefore < rows.length; waited += 10) {
      assert.ok(waited < 5_000, `the pool dropped ${removed - removedBefore} of ${rows.length} terminated connections`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
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
    assert.equal(await selectOne(db), 1);

    const busy = failure(sql`SELECT pg_sleep(5)`.execute(db));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [, error] = await Promise.all([terminateBackends(), busy]);
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
