// The key store on both databases it speaks: embedded SQLite and a real PostgreSQL (127.0.0.1:5432).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { testDatabases } from '../../test/helpers/test-databases.js';
import type { GatewayDb } from './database.js';
import { KeyStore } from './key-store.js';
import { migrateToLatest } from './migrations.js';
import { hashKeySecret } from '../keys/key-secret.js';

for (const [name, open] of testDatabases) {
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

      const { record, secret } = await store.create({ name: 'alpha' });
      assert.match(secret, /^sk-gw-[A-Za-z0-9_-]{43}$/);
      assert.equal(record.prefix, secret.slice(0, 10));
      assert.equal(typeof record.created_at, 'number');

      assert.deepEqual(await store.findActiveByHash(hashKeySecret(secret)), { key: record, ancestors: [] });
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
