// The key store on both databases it speaks: embedded SQLite and a real PostgreSQL (127.0.0.1:5432).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { openDatabase, type GatewayDb } from './database.js';
import { KeyStore } from './key-store.js';
import { migrateToLatest } from './migrations.js';
import { hashKeySecret } from '../keys/key-secret.js';

const postgresUrl = process.env.GATEWAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function sqlite(): Promise<{ db: GatewayDb; cleanup: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'keystore-'));
  const db = await openDatabase({ dataDir });
  return { db, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

/** A schema of its own per run, so parallel runs and reruns never see each other's rows. */
async function postgres(): Promise<{ db: GatewayDb; cleanup: () => Promise<void> }> {
  const schema = `keystore_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = await openDatabase({ dataDir: '', databaseUrl: `${postgresUrl}?options=-c%20search_path%3D${schema}` });
  return {
    db,
    cleanup: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

for (const [name, open] of [['SQLite', sqlite], ['PostgreSQL', postgres]] as const) {
  describe(`key store on ${name}`, () => {
    let store: KeyStore;
    let db: GatewayDb;
    let cleanup: () => Promise<void>;
    after(async () => {
      await db?.destroy();
      await cleanup?.();
    });

    test('migrates, creates, finds, lists and revokes', async () => {
      ({ db, cleanup } = await open());
      await migrateToLatest(db);
      await migrateToLatest(db); // idempotent
      store = new KeyStore(db);

      const { record, secret } = await store.create('alpha');
      assert.match(secret, /^sk-gw-[A-Za-z0-9_-]{43}$/);
      assert.equal(record.prefix, secret.slice(0, 10));
      assert.equal(typeof record.created_at, 'number');

      assert.deepEqual(await store.findActiveByHash(hashKeySecret(secret)), record);
      assert.equal(await store.findActiveByHash(hashKeySecret(`${secret}x`)), undefined);

      const stored = await db.selectFrom('api_keys').selectAll().execute();
      assert.equal(stored.length, 1);
      assert.equal(stored[0].secret_hash, hashKeySecret(secret));
      assert.ok(!JSON.stringify(stored).includes(secret), 'only the hash is at rest');

      const revoked = await store.revoke(record.id);
      assert.equal(typeof revoked?.revoked_at, 'number');
      assert.equal(await store.findActiveByHash(hashKeySecret(secret)), undefined);
      assert.equal((await store.revoke(record.id))?.revoked_at, revoked?.revoked_at, 'revoking twice keeps the first time');
      assert.equal(await store.revoke('key_missing'), undefined);
      assert.deepEqual((await store.list()).map((key) => key.id), [record.id]);
    });
  });
}
