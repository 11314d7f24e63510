// Issue 34, findings 4 and 5: keys minted with POST /v1/keys outlived the key they were minted from (and
// kept minting), and a narrowed key could list, rename and revoke its account's unrestricted keys. Keys form
// a tree now: revoking a key revokes its subtree, on every instance within the key cache's lifetime, and a
// key acts only on its subtree. On both stores, each through real gateways.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminApi } from './helpers/admin-api.js';
import { myKeys } from './helpers/my-keys.js';
import { startSharedStoreGateways, type SharedStoreGateways } from './helpers/shared-store-gateways.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { gatewayDatabases } from './helpers/test-databases.js';

for (const [storeName, openStore] of gatewayDatabases) {
  describe(`the key tree on ${storeName}`, () => {
    let gateway: TestGateway;
    let cleanup: () => Promise<void>;
    before(async () => {
      const store = await openStore();
      cleanup = store.cleanup;
      gateway = await startGateway({ databaseUrl: store.url });
    });
    after(async () => {
      await gateway?.close();
      await cleanup?.();
    });

    test('a child and a grandchild stop working, and minting, when the admin revokes their parent', async () => {
      const admin = adminApi(gateway);
      const account = await admin.createAccount({ name: 'family' });
      const parent = await admin.createKey(account.id, { name: 'parent' });
      const child = await myKeys(gateway.origin, parent.key).mint('child');
      const grandchild = await myKeys(gateway.origin, child.key).mint('grandchild');
      for (const key of [child, grandchild]) assert.equal((await myKeys(gateway.origin, key.key).models()).status, 200);

      await admin.revokeKey(parent.id);

      for (const key of [parent, child, grandchild]) {
        const keyApi = myKeys(gateway.origin, key.key);
        assert.equal((await keyApi.models()).status, 401, `${key.name} is refused`);
        assert.equal((await keyApi.tryMint('more')).status, 401, `${key.name} mints no more`);
      }
      const listed = await admin.listKeys(account.id);
      assert.ok(listed.data.every((key) => key.revoked_at !== null), 'every key of the family is recorded revoked');
      assert.equal(child.parent_key_id, parent.id);
      assert.equal(grandchild.parent_key_id, child.id);
    });

    test('a key revoking a child of its own revokes the grandchild too, and not itself or its siblings', async () => {
      const admin = adminApi(gateway);
      const account = await admin.createAccount({ name: 'branches' });
      const root = await admin.createKey(account.id, { name: 'root' });
      const rootApi = myKeys(gateway.origin, root.key);
      const child = await rootApi.mint('child');
      const sibling = await rootApi.mint('sibling');
      const grandchild = await myKeys(gateway.origin, child.key).mint('grandchild');
      assert.equal((await rootApi.revoke(child.id)).status, 200);
      assert.equal((await myKeys(gateway.origin, grandchild.key).models()).status, 401);
      assert.equal((await myKeys(gateway.origin, child.key).models()).status, 401);
      for (const key of [root, sibling]) assert.equal((await myKeys(gateway.origin, key.key).models()).status, 200);
    });

    test('a narrowed key cannot list, rename or revoke its account’s unrestricted keys', async () => {
      const admin = adminApi(gateway);
      const account = await admin.createAccount({ name: 'narrow and wide' });
      const wide = await admin.createKey(account.id, { name: 'wide' });
      const narrow = await admin.createKey(account.id, { name: 'narrow', permissions: { models: ['builtin/echo'], capabilities: [] } });
      const narrowApi = myKeys(gateway.origin, narrow.key);
      const listed = await narrowApi.list();
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.data.map((key) => key.id), [narrow.id], 'a root sees itself and what it minted, not its sibling roots');
      for (const answer of [await narrowApi.rename(wide.id, 'pwned'), await narrowApi.revoke(wide.id)]) {
        assert.equal(answer.status, 404);
        assert.ok(!JSON.stringify(answer.body).includes('wide'), 'nothing about the wide key is revealed');
      }
      const wideNow = (await admin.listKeys(account.id)).data.find((key) => key.id === wide.id);
      assert.equal(wideNow?.name, 'wide');
      assert.equal(wideNow?.revoked_at, null);
      assert.equal((await myKeys(gateway.origin, wide.key).models()).status, 200);
    });

    test('a minted key cannot act on the key that minted it, nor on its siblings; its maker can act on it', async () => {
      const admin = adminApi(gateway);
      const account = await admin.createAccount({ name: 'up the tree' });
      const parent = await admin.createKey(account.id, { name: 'parent' });
      const parentApi = myKeys(gateway.origin, parent.key);
      const child = await parentApi.mint('child');
      const sibling = await parentApi.mint('sibling');
      const childApi = myKeys(gateway.origin, child.key);
      for (const target of [parent.id, sibling.id]) {
        assert.equal((await childApi.rename(target, 'x')).status, 404);
        assert.equal((await childApi.revoke(target)).status, 404);
      }
      assert.deepEqual((await childApi.list()).body.data.map((key) => key.id), [child.id]);
      assert.deepEqual(new Set((await parentApi.list()).body.data.map((key) => key.id)), new Set([parent.id, child.id, sibling.id]));
      assert.equal((await parentApi.rename(child.id, 'renamed')).body.name, 'renamed');
      assert.equal((await childApi.rename(child.id, 'mine')).body.name, 'mine');
    });

    test('mints racing their parent’s revocation never leave a live child', async (t) => {
      const admin = adminApi(gateway);
      const account = await admin.createAccount({ name: 'race' });
      const outcomes = { minted: 0, refused: 0 };
      for (let round = 0; round < 5; round++) {
        const parent = await admin.createKey(account.id, { name: `parent ${round}` });
        const parentApi = myKeys(gateway.origin, parent.key);
        await parentApi.models(); // cached, so the mints pass authentication while the revocation runs
        const mints = Array.from({ length: 12 }, (_, index) => sleep(index % 4).then(() => parentApi.tryMint(`child ${index}`)));
        const revocation = sleep(2).then(() => admin.revokeKey(parent.id));
        const answers = await Promise.all(mints);
        await revocation;
        for (const answer of answers) {
          assert.ok(answer.status === 201 || answer.status === 401, `mint answered ${answer.status}`);
          outcomes[answer.status === 201 ? 'minted' : 'refused'] += 1;
          if (answer.status === 201) assert.equal((await myKeys(gateway.origin, answer.body.key).models()).status, 401, 'a child minted during the revocation is revoked');
        }
      }
      t.diagnostic(`mints: ${outcomes.minted} before the revocation (revoked with it), ${outcomes.refused} after (401)`);
    });
  });
}

describe('revocation across two gateway instances on one PostgreSQL', () => {
  let gateways: SharedStoreGateways;
  before(async () => (gateways = await startSharedStoreGateways()));
  after(() => gateways?.close());

  test('revoking a key on one instance refuses its descendants on the other within the key cache’s lifetime (1 s)', async (t) => {
    const { first, second } = gateways;
    const admin = adminApi(first);
    const account = await admin.createAccount({ name: 'two instances' });
    const parent = await admin.createKey(account.id, { name: 'parent' });
    const child = await myKeys(first.origin, parent.key).mint('child');
    const grandchild = await myKeys(second.origin, child.key).mint('grandchild');
    const onSecond = [child, grandchild].map((key) => myKeys(second.origin, key.key));
    for (const keyApi of onSecond) assert.equal((await keyApi.models()).status, 200, 'cached on the second instance');

    const revokedAt = performance.now();
    assert.equal((await myKeys(first.origin, parent.key).revoke(parent.id)).status, 200);
    const refusedAfter: number[] = [];
    for (const keyApi of onSecond) {
      while ((await keyApi.models()).status === 200 && performance.now() - revokedAt < 5_000) await sleep(20);
      assert.equal((await keyApi.models()).status, 401);
      refusedAfter.push(performance.now() - revokedAt);
    }
    t.diagnostic(`refused on the other instance after ${refusedAfter.map((elapsed) => `${Math.round(elapsed)} ms`).join(' (child), ')} (grandchild)`);
    // The bound is the cache's 1 s; the margin is for the polling and a loaded machine.
    for (const elapsed of refusedAfter) assert.ok(elapsed < 1_500, `refused after ${Math.round(elapsed)} ms`);
  });
});
