// The account store, and keys that belong to accounts, on both databases the gateway speaks.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { testDatabases } from '../../test/helpers/test-databases.js';
import { hashKeySecret } from '../keys/key-secret.js';
import { AccountStore } from './account-store.js';
import type { GatewayDb } from './database.js';
import { KeyStore } from './key-store.js';
import { defaultAccountId, migrateToLatest } from './migrations.js';

for (const [name, open] of testDatabases) {
  describe(`account store on ${name}`, () => {
    let db: GatewayDb;
    let cleanup: () => Promise<void>;
    after(async () => {
      await db?.destroy();
      await cleanup?.();
    });

    test('the default account exists; accounts are created, read, updated, disabled and enabled; keys belong to them', async () => {
      ({ db, cleanup } = await open());
      await migrateToLatest(db);
      const accounts = new AccountStore(db);
      const keys = new KeyStore(db);
      assert.equal((await accounts.list())[0]?.id, defaultAccountId);

      const account = await accounts.create({ name: 'team', permissions: { models: ['team/*'] }, limits: { tokens_per_minute: 1000 } });
      assert.deepEqual(await accounts.get(account.id), account);
      const disabled = await accounts.update(account.id, { disabled: true, limits: { requests_per_minute: 5 } });
      assert.equal(typeof disabled?.disabled_at, 'number');
      assert.deepEqual(disabled?.limits, { requests_per_minute: 5 });
      assert.deepEqual(disabled?.permissions, { models: ['team/*'] }, 'fields not given are kept');
      assert.equal((await accounts.update(account.id, { disabled: true }))?.disabled_at, disabled?.disabled_at, 'the first disable time stays');
      assert.equal((await accounts.update(account.id, { disabled: false }))?.disabled_at, null);
      assert.equal(await accounts.update('acct_nope', { name: 'x' }), undefined);

      const { record, secret } = await keys.create({ name: 'k', accountId: account.id, permissions: { max_images: 1 } });
      const plain = await keys.create({ name: 'plain' });
      assert.deepEqual(await keys.findActiveByHash(hashKeySecret(secret)), { key: record, ancestors: [] });
      assert.equal(plain.record.account_id, defaultAccountId);
      assert.deepEqual((await keys.list(account.id)).map((key) => key.id), [record.id]);
      assert.deepEqual(record.permissions, { max_images: 1 });
    });
  });
}
