// The admin key API: create (secret once), list without secrets, revoke with immediate effect; only the
// admin key opens it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
before(async () => (gateway = await startGateway()));
after(() => gateway.close());

const admin = (path: string, init: RequestInit = {}, key = gateway.adminKey) =>
  fetch(`${gateway.origin}/admin/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
  });

test('creates a key whose secret works once and is never listed', async () => {
  const created = await admin('/keys', { method: 'POST', body: JSON.stringify({ name: 'demo' }) });
  assert.equal(created.status, 201);
  const key = (await created.json()) as { id: string; key: string; name: string; created_at: number; revoked_at: null };
  assert.equal(key.name, 'demo');
  assert.match(key.key, /^sk-gw-/);
  assert.equal(key.revoked_at, null);

  const models = await fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${key.key}` } });
  assert.equal(models.status, 200);

  const listText = await (await admin('/keys')).text();
  assert.ok(listText.includes(key.id));
  assert.ok(!listText.includes(key.key), 'the list has no secrets');

  const revoked = await admin(`/keys/${key.id}`, { method: 'DELETE' });
  assert.equal(revoked.status, 200);
  assert.equal(typeof ((await revoked.json()) as { revoked_at: number }).revoked_at, 'number');

  const refused = await fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${key.key}` } });
  assert.equal(refused.status, 401);
  assert.equal(((await refused.json()) as { error: { type: string } }).error.type, 'authentication_error');
  assert.ok(!gateway.logs.join('\n').includes(key.key), 'the secret never reaches the logs');
});

test('refuses user keys, wrong keys and no key on admin routes', async () => {
  for (const key of [gateway.apiKey, 'wrong', '']) {
    const response = await admin('/keys', {}, key);
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
  }
});

test('validates the body and reports unknown keys', async () => {
  const noName = await admin('/keys', { method: 'POST', body: JSON.stringify({}) });
  assert.equal(noName.status, 400);
  assert.equal(((await noName.json()) as { error: { param: string } }).error.param, 'name');

  const missing = await admin('/keys/key_0000000000000000', { method: 'DELETE' });
  assert.equal(missing.status, 404);
});
