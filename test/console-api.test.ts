// The API behind the console: who am I, an account's own keys, the recent requests list and its CSV
// export, the admin model list, the spec at /openapi.yaml and the browser pages' headers. Driven with the
// repository's typed client (client/) and the openai SDK against a real gateway.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { parse as parseYaml } from 'yaml';
import { createClient, type GatewayClient } from '../client/index.js';
import { adminApi } from './helpers/admin-api.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

let gateway: TestGateway;
let me: GatewayClient;
before(async () => {
  gateway = await startGateway();
  me = createClient({ baseUrl: gateway.origin, apiKey: gateway.apiKey });
});
after(() => gateway.close());

const clientFor = (apiKey: string) => createClient({ baseUrl: gateway.origin, apiKey });
const chat = (apiKey: string, content = 'Hello') =>
  new OpenAI({ apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'builtin/echo', messages: [{ role: 'user', content }] });

/** The ledger writes in batches about once a second; waits until `count` rows match. */
async function waitForRecords(client: GatewayClient, count: number, query: { key_id?: string } = {}) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { data } = await client.GET('/v1/usage/records', { params: { query: { ...query, limit: 1000 } } });
    if (data!.data.length >= count || Date.now() > deadline) return data!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GET /v1/me', () => {
  test('names the key and its account, never the secret', async () => {
    const { data, response } = await me.GET('/v1/me');
    assert.equal(response.status, 200);
    assert.equal(data!.object, 'me');
    assert.equal(data!.account.id, 'acct_default');
    assert.equal(data!.key.account_id, 'acct_default');
    assert.match(data!.key.prefix, /^sk-gw-/);
    assert.ok(!JSON.stringify(data).includes(gateway.apiKey));
  });

  test('refuses a wrong key and the admin key in the OpenAI error shape', async () => {
    for (const key of ['sk-gw-wrong', gateway.adminKey]) {
      const { error, response } = await clientFor(key).GET('/v1/me');
      assert.equal(response.status, 401);
      assert.equal((error as { error: { type: string } }).error.type, 'authentication_error');
    }
  });
});

describe('an account managing its own keys', () => {
  test('creates a key whose secret is shown once, renames it, lists it and revokes it with immediate effect', async () => {
    const { data: created, response } = await me.POST('/v1/keys', { body: { name: 'laptop' } });
    assert.equal(response.status, 201);
    assert.match(created!.key, /^sk-gw-/);
    assert.equal(created!.account_id, 'acct_default');
    assert.match((await chat(created!.key)).choices[0].message.content!, /Hello/);

    const { data: renamed } = await me.PATCH('/v1/keys/{key_id}', { params: { path: { key_id: created!.id } }, body: { name: 'old laptop' } });
    assert.equal(renamed!.name, 'old laptop');
    const listed = await me.GET('/v1/keys');
    const entry = listed.data!.data.find((key) => key.id === created!.id);
    assert.equal(entry?.name, 'old laptop');
    assert.ok(!JSON.stringify(listed.data).includes(created!.key), 'the list carries no secret');

    const { data: revoked } = await me.DELETE('/v1/keys/{key_id}', { params: { path: { key_id: created!.id } } });
    assert.equal(typeof revoked!.revoked_at, 'number');
    await assert.rejects(chat(created!.key), OpenAI.AuthenticationError);
    const again = await me.DELETE('/v1/keys/{key_id}', { params: { path: { key_id: created!.id } } });
    assert.equal(again.data!.revoked_at, revoked!.revoked_at, 'revoking twice keeps the first time');
  });

  test("cannot see, rename or revoke another account's keys", async () => {
    const admin = adminApi(gateway);
    const other = await admin.createAccount({ name: 'other team' });
    const { id: otherKeyId, key: otherSecret } = await admin.createKey(other.id, { name: 'theirs' });

    const { data: mine } = await me.GET('/v1/keys');
    assert.ok(!mine!.data.some((key) => key.id === otherKeyId));
    const path = { params: { path: { key_id: otherKeyId } } };
    assert.equal((await me.PATCH('/v1/keys/{key_id}', { ...path, body: { name: 'stolen' } })).response.status, 404);
    const revoke = await me.DELETE('/v1/keys/{key_id}', path);
    assert.equal(revoke.response.status, 404);
    assert.equal((revoke.error as { error: { param: string } }).error.param, 'key_id');
    assert.equal((await admin.listKeys(other.id)).data[0].name, 'theirs');
    assert.match((await chat(otherSecret)).choices[0].message.content!, /Hello/, 'their key still works');
  });

  test('a narrowed key makes keys exactly as narrow as itself', async () => {
    const admin = adminApi(gateway);
    const narrow = await admin.createKey('acct_default', { name: 'narrow', permissions: { models: ['builtin/image'] }, limits: { requests_per_minute: 50 } });
    const { data: minted } = await clientFor(narrow.key).POST('/v1/keys', { body: { name: 'minted' } });
    assert.deepEqual(minted!.permissions, { models: ['builtin/image'] });
    assert.deepEqual(minted!.limits, { requests_per_minute: 50 });
    await assert.rejects(chat(minted!.key), OpenAI.PermissionDeniedError);
  });

  test('a key may revoke itself', async () => {
    const { data: created } = await me.POST('/v1/keys', { body: { name: 'short-lived' } });
    const own = clientFor(created!.key);
    assert.equal((await own.DELETE('/v1/keys/{key_id}', { params: { path: { key_id: created!.id } } })).response.status, 200);
    assert.equal((await own.GET('/v1/me')).response.status, 401);
  });

  test('refuses a body without a name, or with fields it does not take', async () => {
    for (const body of [{}, { name: '' }, { name: 'x', permissions: {} }]) {
      const { response, error } = await me.POST('/v1/keys', { body: body as { name: string } });
      assert.equal(response.status, 400);
      assert.equal((error as { error: { type: string } }).error.type, 'invalid_request_error');
    }
  });
});

describe('recent requests', () => {
  test('lists the account’s requests newest first and pages with next_before', async () => {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'pager' });
    const { key, id: keyId } = await admin.createKey(account.id, { name: 'pager key' });
    for (let index = 0; index < 5; index++) await chat(key, `message ${index}`);
    const client = clientFor(key);
    await waitForRecords(client, 5);

    const seen: string[] = [];
    let before: string | undefined;
    for (let page = 0; page < 5; page++) {
      const { data } = await client.GET('/v1/usage/records', { params: { query: { limit: 2, ...(before && { before }) } } });
      seen.push(...data!.data.map((record) => record.id));
      for (const record of data!.data) {
        assert.equal(record.account_id, account.id);
        assert.equal(record.key_id, keyId);
        assert.equal(record.endpoint, 'POST /v1/chat/completions');
        assert.equal(record.status, 200);
        assert.ok(!('deployment' in record), 'which deployment served it stays the operator’s business');
      }
      if (!data!.next_before) break;
      before = data!.next_before;
    }
    assert.equal(seen.length, 5);
    assert.equal(new Set(seen).size, 5, 'no record twice');

    const { data: all } = await client.GET('/v1/usage/records');
    assert.deepEqual(all!.data.map((record) => record.id), seen, 'pages join up into the one list, newest first');
    assert.ok(all!.data.every((record, index) => index === 0 || all!.data[index - 1].created_at >= record.created_at));
  });

  test('exports every matching row as CSV with Accept: text/csv', async () => {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'exporter' });
    const { key } = await admin.createKey(account.id, { name: 'csv, "quoted"' });
    for (let index = 0; index < 3; index++) await chat(key);
    await waitForRecords(clientFor(key), 3);

    const response = await fetch(`${gateway.origin}/v1/usage/records`, { headers: { authorization: `Bearer ${key}`, accept: 'text/csv' } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^text\/csv/);
    assert.match(response.headers.get('content-disposition')!, /^attachment; filename="?usage-\d{4}-\d{2}-\d{2}\.csv"?$/);
    const lines = (await response.text()).trimEnd().split('\r\n');
    assert.equal(lines[0], 'id,created_at,request_id,account_id,key_id,model,protocol,endpoint,status,input_tokens,cached_input_tokens,cache_write_input_tokens,cache_write_1h_input_tokens,output_tokens,reasoning_tokens,image_count,latency_ms,cost_usd,price_tier_above_tokens,service_tier,batch,estimated,completed,batch_id');
    assert.equal(lines.length, 4, 'every row');
    const first = lines[1].split(',');
    assert.match(first[1], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(first[3], account.id);
    assert.equal(first[5], 'builtin/echo');

    const json = await fetch(`${gateway.origin}/v1/usage/records`, { headers: { authorization: `Bearer ${key}`, accept: '*/*' } });
    assert.match(json.headers.get('content-type')!, /^application\/json/, 'any type is JSON');
  });

  test('refuses a forged cursor with a 400 naming the parameter', async () => {
    const { response, error } = await me.GET('/v1/usage/records', { params: { query: { before: 'not-a-cursor' } } });
    assert.equal(response.status, 400);
    assert.equal((error as { error: { param: string } }).error.param, 'before');
  });

  test('the admin reads any account’s records, or everyone’s', async () => {
    const admin = createClient({ baseUrl: gateway.origin, apiKey: gateway.adminKey });
    const accounts = adminApi(gateway);
    const account = await accounts.createAccount({ name: 'watched' });
    const { key } = await accounts.createKey(account.id, { name: 'w' });
    await chat(key);
    await waitForRecords(clientFor(key), 1);
    const { data: theirs } = await admin.GET('/admin/v1/usage/records', { params: { query: { account_id: account.id } } });
    assert.equal(theirs!.data.length, 1);
    const { data: everyone } = await admin.GET('/admin/v1/usage/records', { params: { query: { limit: 1000 } } });
    assert.ok(new Set(everyone!.data.map((record) => record.account_id)).size > 1);
    assert.equal((await me.GET('/admin/v1/usage/records')).response.status, 401, 'user keys are refused');
  });
});

test('the admin model list has every model with capabilities, prices and image settings', async () => {
  const narrow = await adminApi(gateway).createKey('acct_default', { name: 'images only', permissions: { models: ['builtin/image'] } });
  const admin = createClient({ baseUrl: gateway.origin, apiKey: gateway.adminKey });
  const { data: all } = await admin.GET('/admin/v1/models');
  const { data: visible } = await clientFor(narrow.key).GET('/v1/models');
  assert.ok(visible && 'object' in visible, 'the OpenAI list shape');
  assert.deepEqual(visible.data.map((model) => model.id), ['builtin/image']);
  assert.ok(all!.data.length > 1);
  const image = all!.data.find((model) => model.id === 'builtin/image')!;
  assert.deepEqual(image.images?.response_formats, ['url', 'b64_json']);
  assert.equal(all!.data.find((model) => model.id === 'builtin/echo')!.images, undefined, 'chat models have no image settings');
});

test('GET /openapi.yaml serves the contract without a key', async () => {
  const response = await fetch(`${gateway.origin}/openapi.yaml`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type')!, /^application\/yaml/);
  const spec = parseYaml(await response.text()) as { openapi: string; paths: Record<string, unknown> };
  assert.equal(spec.openapi, '3.0.3');
  assert.ok(spec.paths['/v1/keys']);
});

describe('the browser pages', () => {
  for (const path of ['/console/', '/docs/']) {
    test(`${path} is served without a key, with a strict Content-Security-Policy`, async () => {
      const response = await fetch(`${gateway.origin}${path}`, { redirect: 'manual' });
      assert.equal(response.status, 200, 'the page itself, not a redirect');
      assert.match(response.headers.get('content-type')!, /^text\/html/);
      const policy = response.headers.get('content-security-policy')!;
      assert.match(policy, /default-src 'self'/);
      assert.match(policy, /script-src 'self'(;|$)/, 'no inline or remote scripts');
      assert.match(policy, /frame-ancestors 'none'/);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      const html = await response.text();
      assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
      assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, 'nothing from another origin');
    });
  }

  test('/console and /docs redirect to their directories; hashed assets are cached for a year', async () => {
    for (const path of ['/console', '/docs']) {
      const response = await fetch(`${gateway.origin}${path}`, { redirect: 'manual' });
      assert.equal(response.status, 301);
      assert.equal(response.headers.get('location'), `${path}/`);
    }
    const html = await (await fetch(`${gateway.origin}/console/`)).text();
    const script = /src="(assets\/[^"]+\.js)"/.exec(html)![1];
    const asset = await fetch(`${gateway.origin}/console/${script}`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  });

  test('an unknown file under /console is a 404 in the OpenAI shape, not the app', async () => {
    const response = await fetch(`${gateway.origin}/console/nope.js`);
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'unknown_url');
  });
});
