// Every operation of the spec under other spellings of its path (case, doubled and trailing slashes,
// percent-encoding, the case of a Gemini action): each spelling is either served by the same operation,
// with the same security and the same ledger row, or answered 404 in the family's error shape. Never
// served unmetered, and no account key ever reaches an admin operation. Issue 23: `/Admin/v1/accounts`
// answered an account key, and `/V1/Chat/Completions` was served without a ledger row.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { operationRoutes, type OperationRoute } from '../generated/operations.js';
import { adminApi } from './helpers/admin-api.js';
import { validBodiesOf } from './helpers/bad-input/sample-from-schema.js';
import { operations } from './helpers/bad-input/spec-operations.js';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import { makeImage } from './helpers/images.js';
import { pathSpellings, type PathSpelling } from './helpers/path-spellings.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';

/** Model calls get more: their ledger rows are what an attacker's spelling would dodge. */
const spellingsPer = (route: OperationRoute) => (route.metering ? 24 : 12);
const errorSchema = { openai: 'OpenAIError', admin: 'OpenAIError', anthropic: 'AnthropicError', gemini: 'GeminiError' } as const;

let gateway: TestGateway;
let pathValues: Record<string, string>;
let png: Buffer;
/** Every request sent, by its `x-request-id`, to check the ledger once it has been written. */
const sent = new Map<string, { route: OperationRoute; spelling: PathSpelling; status: number }>();
let requestCount = 0;

before(async () => {
  gateway = await startGateway();
  const admin = adminApi(gateway);
  // Things the spellings may change without harm: an account and keys of their own.
  const account = await admin.createAccount({ name: 'spelling target' });
  const accountKey = await admin.createKey(account.id, { name: 'spelling target' });
  const own = await fetch(`${gateway.origin}/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'spelling target' }),
  });
  const ownKey = (await own.json()) as { id: string };
  pathValues = { model: 'builtin/echo', response_id: 'resp_0000', account_id: account.id, file: 'img_missing.png', file_id: 'file-0000' };
  pathValues.key_id = ownKey.id;
  pathValues.admin_key_id = accountKey.id;
  png = await makeImage('png', 8, 8);
});
after(() => gateway.close());

/** The request an operation's canonical spelling takes, at another path. */
async function send(route: OperationRoute, path: string, secret: string): Promise<{ status: number; body: string; requestId: string }> {
  const requestId = `spelling-${++requestCount}`;
  const headers: Record<string, string> = { authorization: `Bearer ${secret}`, 'x-request-id': requestId };
  if (route.protocol === 'anthropic') headers['anthropic-version'] = '2023-06-01';
  let body: BodyInit | undefined;
  if (route.body === 'json') {
    const operation = operations.find((candidate) => candidate.operationId === route.operationId)!;
    body = JSON.stringify(validBodiesOf(operation)[0]);
    headers['content-type'] = 'application/json';
  } else if (route.body === 'multipart') {
    const form = new FormData();
    form.append('model', 'builtin/image-edit');
    form.append('prompt', 'make it grey');
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
    body = form;
  }
  const response = await fetch(`${gateway.origin}${path}`, { method: route.method.toUpperCase(), headers, body });
  return { status: response.status, body: await response.text(), requestId };
}

/** The operation the gateway's request log line names for a request (undefined: it matched none). */
async function loggedOperation(requestId: string): Promise<string | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const line = gateway.logs.find((text) => text.includes(`"requestId":"${requestId}"`) && text.includes('"msg":"request"'));
    if (line) return (JSON.parse(line) as { operation?: string }).operation;
    await sleep(10);
  }
  throw new Error(`no log line for ${requestId}`);
}

const valuesFor = (route: OperationRoute) => ({ ...pathValues, key_id: route.security === 'admin' ? pathValues.admin_key_id! : pathValues.key_id! });

describe('every spelling of every operation: the same operation, or a 404 in its family', () => {
  for (const route of operationRoutes) {
    test(`${route.method.toUpperCase()} ${route.path}`, { timeout: 60_000 }, async () => {
      const secret = route.security === 'admin' ? gateway.adminKey : gateway.apiKey;
      await fc.assert(
        fc.asyncProperty(pathSpellings(route.path, valuesFor(route)), async (spelling) => {
          const label = `${route.method.toUpperCase()} ${spelling.path} (${spelling.changes.join(', ') || 'as written'})`;
          const answer = await send(route, spelling.path, secret);
          sent.set(answer.requestId, { route, spelling, status: answer.status });
          const operation = await loggedOperation(answer.requestId);
          if (spelling.verdict === 'same') {
            assert.equal(operation, route.operationId, `${label}: served by ${operation ?? 'no operation'}, ${answer.status} ${answer.body.slice(0, 200)}`);
            return;
          }
          assert.equal(operation, undefined, `${label} reached ${operation}`);
          assert.equal(answer.status, 404, `${label}: ${answer.status} ${answer.body.slice(0, 200)}`);
          assertMatchesSchema(errorSchema[route.protocol], JSON.parse(answer.body));
          if (route.protocolFromClient) return;
          // The family's own shape, not just any error shape.
          if (route.protocol === 'anthropic') assert.equal((JSON.parse(answer.body) as { type?: string }).type, 'error', label);
          if (route.protocol === 'gemini') assert.equal(typeof (JSON.parse(answer.body) as { error: { status?: unknown } }).error.status, 'string', label);
        }),
        { seed: 23, numRuns: spellingsPer(route), endOnFailure: true },
      );
    });
  }

  test('no spelling of an admin operation answers an account key', { timeout: 60_000 }, async () => {
    for (const route of operationRoutes.filter((candidate) => candidate.security === 'admin')) {
      await fc.assert(
        fc.asyncProperty(pathSpellings(route.path, valuesFor(route)), async (spelling) => {
          const answer = await send(route, spelling.path, gateway.apiKey);
          sent.set(answer.requestId, { route, spelling, status: answer.status });
          assert.ok(answer.status === 401 || answer.status === 404, `${route.method.toUpperCase()} ${spelling.path}: ${answer.status} ${answer.body.slice(0, 200)}`);
        }),
        { seed: 23, numRuns: spellingsPer(route), endOnFailure: true },
      );
    }
  });

  test('every model call served under any spelling has its one ledger row, under the operation’s endpoint', { timeout: 30_000 }, async () => {
    const metered = [...sent].filter(([, request]) => request.route.metering);
    const served = metered.filter(([, request]) => request.spelling.verdict === 'same').length;
    assert.ok(served >= 100 && metered.length - served >= 50, `too few model calls to judge: ${served} served, ${metered.length - served} not`);
    const rows = await ledgerRowsByRequestId(metered.length);
    for (const [requestId, { route, spelling, status }] of metered) {
      const row = rows.get(requestId);
      if (spelling.verdict === 'unmatched') {
        assert.equal(row, undefined, `${spelling.path} was not served, yet has a ledger row`);
        continue;
      }
      assert.ok(row, `${route.method.toUpperCase()} ${spelling.path} (${status}) was served without a ledger row`);
      assert.equal(row.endpoint, `${route.method.toUpperCase()} ${route.path}`);
      assert.equal(row.status, status);
    }
  });
});

/** Every usage row of the gateway by request ID, once at least `expected` rows or no more are written. */
async function ledgerRowsByRequestId(expected: number): Promise<Map<string, { endpoint: string; status: number }>> {
  const rows = new Map<string, { endpoint: string; status: number }>();
  for (let attempt = 0; attempt < 30; attempt++) {
    rows.clear();
    let before: string | null | undefined;
    do {
      const query = new URLSearchParams({ limit: '1000', ...(before ? { before } : {}) });
      const response = await fetch(`${gateway.origin}/admin/v1/usage/records?${query}`, { headers: { authorization: `Bearer ${gateway.adminKey}` } });
      const page = (await response.json()) as { data: Array<{ request_id: string; endpoint: string; status: number }>; next_before: string | null };
      for (const row of page.data) {
        assert.ok(!rows.has(row.request_id), `two ledger rows for ${row.request_id}`);
        rows.set(row.request_id, row);
      }
      before = page.next_before;
    } while (before);
    const served = [...sent.values()].filter((request) => request.route.metering && request.spelling.verdict === 'same').length;
    if (rows.size >= Math.min(expected, served)) return rows;
    await sleep(200);
  }
  return rows;
}
