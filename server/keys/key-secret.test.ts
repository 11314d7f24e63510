// What the store keeps for a key must stay SHA-256 hex of the secret: keys created before a change must
// still be found after it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashKeySecret, secretsEqual } from './key-secret.js';

test('a secret is stored as the SHA-256 hex of its UTF-8 bytes', () => {
  // FIPS 180-2's test vector for "abc".
  assert.equal(hashKeySecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  // Non-ASCII characters are hashed as UTF-8 (value from `printf 'sk-gw-ü' | sha256sum`).
  assert.equal(hashKeySecret('sk-gw-ü'), '6204fa9ac07e7431d14ede15299bcddefa5dbe49ad55ca9de97469dd4d0b3098');
});

test('secrets compare equal only when they are', () => {
  assert.equal(secretsEqual('sk-gw-a', 'sk-gw-a'), true);
  assert.equal(secretsEqual('sk-gw-a', 'sk-gw-b'), false);
  assert.equal(secretsEqual('sk-gw-a', 'sk-gw-aa'), false);
});
