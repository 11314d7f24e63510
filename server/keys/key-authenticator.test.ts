// The key cache while the store is down: a key the store confirmed lately keeps working (and the store is
// tried again once per ttl), a key not confirmed within the grace, or never seen, gets the store's error,
// and an error that is no outage is never covered up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AccountRecord, AccountStore } from '../store/account-store.js';
import type { KeyRecord, KeyStore } from '../store/key-store.js';
import { markStoreError } from '../store/store-unavailable.js';
import { KeyAuthenticator } from './key-authenticator.js';
import { hashKeySecret } from './key-secret.js';

const account: AccountRecord = { id: 'acct_1', name: 'a', created_at: 0, disabled_at: null, permissions: {}, limits: {} };
const key: KeyRecord = { id: 'key_1', name: 'k', prefix: 'sk-gw-abcd', created_at: 0, revoked_at: null, account_id: 'acct_1', permissions: {}, limits: {}, shares_limits_with: null, parent_key_id: null };

/** A store whose lookups succeed until `failWith` or `hang` is set; counts them. */
function flakyStores() {
  const state = { failWith: undefined as Error | undefined, hang: false, revoked: false, lookups: 0 };
  const keys = {
    findActiveByHash: async (hash: string) => {
      state.lookups += 1;
      if (state.hang) return new Promise(() => {});
      if (state.failWith) throw state.failWith;
      return hash === hashKeySecret('good') && !state.revoked ? { key, ancestors: [] } : undefined;
    },
  } as unknown as KeyStore;
  const accounts = { get: async () => account } as unknown as AccountStore;
  return { state, keys, accounts };
}

const outage = () => {
  const error = new Error('Connection terminated unexpectedly');
  markStoreError(error);
  return error;
};

test('during an outage a recently confirmed key keeps working; unknown keys get the outage error', async () => {
  const { state, keys, accounts } = flakyStores();
  const authenticator = new KeyAuthenticator(keys, accounts, 20, 100, 1_000);
  assert.equal((await authenticator.verify('good'))?.key.id, 'key_1');
  state.failWith = outage();
  await sleep(30);
  const lookupsBefore = state.lookups;
  assert.equal((await authenticator.verify('good'))?.key.id, 'key_1', 'served from the cache');
  assert.equal((await authenticator.verify('good'))?.key.id, 'key_1');
  assert.equal(state.lookups, lookupsBefore + 1, 'the store is tried once per ttl, not once per request');
  await assert.rejects(authenticator.verify('never seen'), state.failWith);
});

test('the grace ends: a key not confirmed within it gets the outage error', async () => {
  const { state, keys, accounts } = flakyStores();
  const authenticator = new KeyAuthenticator(keys, accounts, 10, 100, 50);
  await authenticator.verify('good');
  state.failWith = outage();
  await sleep(70);
  await assert.rejects(authenticator.verify('good'), state.failWith);
});

test('an error that is no outage is not covered by the cache', async () => {
  const { state, keys, accounts } = flakyStores();
  const authenticator = new KeyAuthenticator(keys, accounts, 10, 100, 1_000);
  await authenticator.verify('good');
  state.failWith = new Error('relation "api_keys" does not exist');
  await sleep(20);
  await assert.rejects(authenticator.verify('good'), state.failWith);
});

test('once the store is known down, known keys do not wait for it; a background lookup notices its return', async () => {
  const { state, keys, accounts } = flakyStores();
  const authenticator = new KeyAuthenticator(keys, accounts, 20, 100, 1_000);
  await authenticator.verify('good');
  state.failWith = outage();
  await sleep(30);
  await authenticator.verify('good'); // finds the store down
  state.hang = true; // a blackhole: lookups never answer
  await sleep(30);
  const started = Date.now();
  assert.equal((await authenticator.verify('good'))?.key.id, 'key_1');
  assert.ok(Date.now() - started < 15, 'served without waiting for the store');

  // Back, and meanwhile the key was revoked elsewhere: the background lookup drops it from the cache.
  Object.assign(state, { hang: false, failWith: undefined, revoked: true });
  await sleep(30);
  await authenticator.verify('good');
  await sleep(5);
  assert.equal(await authenticator.verify('good'), undefined);
});
