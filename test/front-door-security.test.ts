// The breaks of issue 23, each as it was found: an account key reaching the admin API through another
// case of `/admin`, model calls on other spellings served but never metered, and the admin API answering
// when no admin key is configured.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { operationRoutes } from '../generated/operations.js';
import { adminOnly } from '../server/access/admin-only.js';
import { toPrincipal } from '../server/access/principal.js';
import type { RequestContext } from '../server/core/request-context.js';
import { RequestWork } from '../server/core/request-work.js';
import { adminApi } from './helpers/admin-api.js';
import { awayFromMinuteEdge } from './helpers/minute-window.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

describe('an account key and the admin API', () => {
  let gateway: TestGateway;
  let accountId: string;
  let key: string;
  before(async () => {
    gateway = await startGateway();
    const account = await adminApi(gateway).createAccount({ name: 'narrow', permissions: { models: ['nothing/*'] }, limits: { requests_per_minute: 100 } });
    accountId = account.id;
    key = (await adminApi(gateway).createKey(account.id, { name: 'k' })).key;
  });
  after(() => gateway.close());

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${gateway.origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  test('other cases of /admin are no operation: 404, and nothing changes', async () => {
    for (const [method, path, body] of [
      ['GET', '/Admin/v1/accounts'],
      ['GET', '/ADMIN/v1/keys'],
      ['GET', '/aDmin/v1/usage/records'],
      ['PATCH', `/Admin/v1/accounts/${accountId}`, { permissions: {}, limits: {} }],
      ['POST', '/ADMIN/v1/keys', { name: 'minted', account_id: 'acct_default' }],
      ['GET', '/admin/V1/accounts'],
      ['GET', '/%61dmin/v1/accounts'],
    ] as const) {
      const answer = await call(method, path, body);
      assert.equal(answer.status, 404, `${method} ${path}: ${answer.status}`);
      const error = ((await answer.json()) as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'unknown_url');
    }
    const account = await adminApi(gateway).getAccount(accountId);
    assert.deepEqual(account.permissions, { models: ['nothing/*'] }, 'the account kept its permissions');
    assert.equal((await adminApi(gateway).listKeys('acct_default')).data.some((listed) => listed.name === 'minted'), false);
  });

  test('the admin operations themselves refuse the account key (401)', async () => {
    for (const route of operationRoutes.filter((candidate) => candidate.security === 'admin')) {
      const path = route.path.replace('{account_id}', accountId).replace('{key_id}', 'key_0000000000000000');
      const answer = await call(route.method.toUpperCase(), path, route.body === 'json' ? { name: 'x' } : undefined);
      assert.equal(answer.status, 401, `${route.method.toUpperCase()} ${path}`);
    }
  });
});

test('with no admin key configured, every admin operation is 401, whatever key is sent', async () => {
  const gateway = await startGateway({ adminApi: false });
  try {
    for (const route of operationRoutes.filter((candidate) => candidate.security === 'admin')) {
      const path = route.path.replace('{account_id}', 'acct_default').replace('{key_id}', 'key_0000000000000000');
      for (const secret of [gateway.apiKey, gateway.adminKey, undefined]) {
        const answer = await fetch(`${gateway.origin}${path}`, {
          method: route.method.toUpperCase(),
          headers: { ...(secret ? { authorization: `Bearer ${secret}` } : {}), 'content-type': 'application/json' },
          body: route.body === 'json' ? JSON.stringify({ name: 'x' }) : undefined,
        });
        assert.equal(answer.status, 401, `${route.method.toUpperCase()} ${path}`);
        assert.match(((await answer.json()) as { error: { message: string } }).error.message, /admin API is disabled/);
      }
    }
  } finally {
    await gateway.close();
  }
});

test('the admin handlers refuse any caller but the admin, however they were reached', async () => {
  const handler = adminOnly({ listAccounts: (_req: never, _res: never, _context: RequestContext) => 'served' });
  const principal = toPrincipal(
    { id: 'key_1', name: 'k', prefix: 'sk-gw-x', created_at: 0, revoked_at: null, account_id: 'acct_1', permissions: {}, limits: {}, shares_limits_with: null, parent_key_id: null },
    { id: 'acct_1', name: 'a', created_at: 0, disabled_at: null, permissions: {}, limits: {} },
  );
  const context = (caller: RequestContext['caller']): RequestContext => ({ requestId: 'r', pathParams: {}, family: 'admin', caller, work: new RequestWork(), emit: () => Promise.reject(new Error('the admin handlers answer no routed call')) });
  assert.throws(() => handler.listAccounts(undefined as never, undefined as never, context({ kind: 'key', principal })), { kind: 'authentication' });
  assert.throws(() => handler.listAccounts(undefined as never, undefined as never, context(undefined)), { kind: 'authentication' });
  assert.equal(handler.listAccounts(undefined as never, undefined as never, context({ kind: 'admin' })), 'served');
});

test('model calls under other spellings are metered as the operation: 3 a minute means 3, and every answer has its row', async () => {
  const gateway = await startGateway();
  try {
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'three a minute', limits: { requests_per_minute: 3 } });
    const key = (await admin.createKey(account.id, { name: 'k' })).key;
    const chat = { model: 'builtin/echo', messages: [{ role: 'user', content: 'hi' }] };
    const messages = { model: 'builtin/echo', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] };
    const gemini = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const spellings: Array<[string, unknown]> = [
      ['/v1/chat/completions/', chat],
      ['/V1/Chat/Completions', chat],
      ['/v1//chat/completions', chat],
      ['/v1/responses/', { model: 'builtin/echo', input: 'hi' }],
      ['/v1/messages/', messages],
      ['/v1/messages/count_tokens/', messages],
      ['/V1BETA/models/builtin%2Fecho:generateContent', gemini],
      ['/v1beta/models/builtin%2Fecho:GenerateContent', gemini],
      ['/v1beta/models/builtin/echo:generateContent/', gemini],
      ['/v1beta//models/builtin%2fecho:countTokens', gemini],
    ];
    const answers: number[] = [];
    // The 30 requests must fall in one fixed minute, or the next minute allows 3 more (it failed so, under load).
    await awayFromMinuteEdge();
    for (let round = 0; round < 3; round++) {
      for (const [path, body] of spellings) {
        const answer = await fetch(`${gateway.origin}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify(body),
        });
        await answer.arrayBuffer();
        answers.push(answer.status);
      }
    }
    assert.equal(answers.filter((status) => status === 200).length, 3, `answers: ${answers.join(' ')}`);
    assert.ok(answers.every((status) => status === 200 || status === 404 || status === 429), `answers: ${answers.join(' ')}`);
    const metered = answers.filter((status) => status !== 404).length;
    let rows = 0;
    for (let attempt = 0; attempt < 30 && rows < metered; attempt++) {
      await sleep(100);
      rows = (await admin.usage({ account_id: account.id, group_by: 'model' })).data.reduce((sum, group) => sum + group.requests, 0);
    }
    assert.equal(rows, metered, 'every answered model call has its ledger row');
  } finally {
    await gateway.close();
  }
});
