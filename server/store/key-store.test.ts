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

    test('keys minted anywhere in a subtree while its root is revoked are all revoked, or never made', async () => {
      const root = await store.create({ name: 'root' });
      const children = await Promise.all(Array.from({ length: 4 }, (_, index) => store.createChild(root.record.id, { name: `child ${index}` })));
      const parents = [root.record.id, ...children.map((child) => child!.record.id)];
      // Mints under every level, some before the revocation starts and some while it runs.
      const mints = Array.from({ length: 40 }, (_, index) => store.createChild(parents[index % parents.length]!, { name: `late ${index}` }));
      const revocation = store.revoke(root.record.id);
      const minted = (await Promise.all(mints)).filter((created) => created !== undefined);
      await revocation;
      for (const created of minted) assert.equal(await store.findActiveByHash(hashKeySecret(created.secret)), undefined);
      const subtree = await store.listSubtree(root.record.id);
      assert.equal(subtree.length, 1 + children.length + minted.length);
      assert.ok(subtree.every((key) => key.revoked_at !== null), 'every key of the subtree is recorded revoked');
    });

    test('0008_key_parents gives keys minted before it the first key of their family as parent, and revokes those of revoked keys', async () => {
      const legacy = await open();
      try {
        await migrateToLatest(legacy.db, '0006_usage_records_completed');
        const row = (id: string, fields: { shares_limits_with?: string; revoked_at?: number } = {}) => ({
          ...{ id, name: id, secret_hash: `hash_${id}`, prefix: 'sk-gw-x', created_at: 1, revoked_at: null, shares_limits_with: null },
          ...fields,
        });
        const rows = [
          row('key_root'),
          row('key_child', { shares_limits_with: 'key_root' }),
          row('key_grandchild', { shares_limits_with: 'key_root' }),
          row('key_gone', { revoked_at: 5 }),
          row('key_orphan', { shares_limits_with: 'key_gone' }),
        ];
        // The table as 0006 left it, without parent_key_id.
        await legacy.db.insertInto('api_keys').values(rows as never).execute();
        await migrateToLatest(legacy.db);
        const keys = new Map((await new KeyStore(legacy.db).list()).map((key) => [key.id, key]));
        assert.equal(keys.get('key_root')?.parent_key_id, null);
        assert.equal(keys.get('key_child')?.parent_key_id, 'key_root');
        assert.equal(keys.get('key_grandchild')?.parent_key_id, 'key_root', 'its real parent is unknown; the first key of its family is above it');
        assert.equal(keys.get('key_child')?.revoked_at, null);
        assert.equal(keys.get('key_orphan')?.revoked_at, 5, 'a key minted from a revoked key is revoked with it');
      } finally {
        await legacy.db.destroy();
        await legacy.cleanup();
      }
    });
  });
}
