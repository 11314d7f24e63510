// The gateway's PostgreSQL introspection (what the migrator asks before it migrates) against the real server
// while another client creates and drops schemas as fast as it can: Kysely's own introspector failed there with
// "schema … does not exist" (a CI run lost a test file's migration to a neighbour's DROP SCHEMA).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { postgresDatabase, postgresUrl, type TestDatabase } from '../../test/helpers/test-databases.js';
import { migrateToLatest } from './migrations.js';

let store: TestDatabase;
let neighbour: pg.Client;
let churning = true;
let churn: Promise<void>;

before(async () => {
  store = await postgresDatabase();
  await migrateToLatest(store.db);
  neighbour = new pg.Client({ connectionString: postgresUrl });
  await neighbour.connect();
  // A table in the neighbour's schemas, so a scan of every schema would list them.
  churn = (async () => {
    for (let round = 0; churning; round += 1) {
      const schema = `churn_${process.pid}_${round}`;
      await neighbour.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.api_keys (id int)`);
      await neighbour.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  })();
});
after(async () => {
  churning = false;
  await churn;
  await neighbour?.end();
  await store?.db.destroy();
  await store?.cleanup();
});

test('lists the tables of its own schema, every time, while other schemas come and go', async () => {
  for (let round = 0; round < 200; round += 1) {
    const tables = await store.db.introspection.getTables();
    const schemas = new Set(tables.map((table) => table.schema));
    assert.equal(schemas.size, 1, `round ${round}: tables from ${[...schemas].join(', ')}`);
    const keys = tables.find((table) => table.name === 'api_keys');
    assert.ok(keys?.columns.some((column) => column.name === 'secret_hash' && !column.isNullable), `round ${round}: api_keys and its columns`);
  }
});

test('migrates, with the migration tables found in its own schema, while other schemas come and go', async () => {
  for (let round = 0; round < 20; round += 1) await migrateToLatest(store.db);
  const internal = await store.db.introspection.getTables({ withInternalKyselyTables: true });
  assert.ok(internal.some((table) => table.name === 'kysely_migration'));
  assert.ok(!(await store.db.introspection.getTables()).some((table) => table.name === 'kysely_migration'));
});
