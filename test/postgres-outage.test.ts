// PostgreSQL going away under load, for a real gateway process in front of a TCP proxy to the test
// PostgreSQL (a private schema; the shared server is never touched): a 5 s blackhole, then
// pg_terminate_backend on the gateway's own server processes and a "restart" (every connection dropped,
// new ones refused for 3 s). The process lives; model requests of keys it knows keep being answered from
// the key cache and their usage rows wait in the recorder's queue until the database is back; requests
// that need the store get 503 (529 for Anthropic) in their protocol's shape with retry-after, in bounded
// time; and everything works again by itself once the database is back.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import pg from 'pg';
import { openDatabase, type GatewayDb } from '../server/store/database.js';
import { adminApi } from './helpers/admin-api.js';
import { startPostgresProxy, type PostgresProxy } from './helpers/postgres-proxy.js';
import { spawnGateway, type GatewayProcess } from './helpers/spawn-gateway.js';
import { postgresSchemaUrl, postgresUrl } from './helpers/test-databases.js';

const model = 'builtin/echo';

interface Answer {
  requestId: string;
  at: number;
}

/** `clients` OpenAI SDK callers in a loop, streaming every other request, until `stop`; every outcome kept. */
function keepCalling(openai: OpenAI, clients: number, stop: { now: boolean }) {
  const answers: Answer[] = [];
  const failures: unknown[] = [];
  const caller = async (id: number) => {
    for (let i = 0; !stop.now; i++) {
      const messages = [{ role: 'user' as const, content: `caller ${id}, request ${i}` }];
      try {
        if (i % 2 === 0) {
          const { response } = await openai.chat.completions.create({ model, messages }).withResponse();
          answers.push({ requestId: response.headers.get('x-request-id')!, at: Date.now() });
        } else {
          const { data: stream, response } = await openai.chat.completions.create({ model, messages, stream: true }).withResponse();
          for await (const _chunk of stream);
          answers.push({ requestId: response.headers.get('x-request-id')!, at: Date.now() });
        }
      } catch (error) {
        failures.push(error);
        await sleep(50);
      }
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, id) => caller(id)));
  return { answers, failures, done };
}

/** Waits until the load has `count` answers, or fails with what went wrong instead. */
async function untilAnswered(load: ReturnType<typeof keepCalling>, count: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (load.answers.length < count) {
    if (Date.now() > deadline) assert.fail(`${load.answers.length} answers in ${timeoutMs} ms; failures: ${load.failures.slice(0, 3).map(String).join('; ')}`);
    await sleep(50);
  }
}

/** A gateway process on a fresh schema, reaching PostgreSQL only through a proxy, under an application name of its own. */
async function gatewayBehindProxy() {
  const database = await postgresSchemaUrl();
  const proxy = await startPostgresProxy();
  const applicationName = `outage-test-${randomUUID()}`;
  const url = new URL(proxy.urlThrough(database.url));
  url.searchParams.set('application_name', applicationName);
  const adminKey = `admin-${randomUUID()}`;
  const gateway = await spawnGateway({
    GATEWAY_DATABASE_URL: url.toString(),
    GATEWAY_ADMIN_KEY: adminKey,
    GATEWAY_DATABASE_CONNECT_TIMEOUT_MS: '1000',
    GATEWAY_DATABASE_QUERY_TIMEOUT_MS: '2000',
  });
  // The test reads the ledger straight from PostgreSQL, not through the proxy it cuts.
  const ledger = await openDatabase({ dataDir: '', databaseUrl: database.url });
  const admin = adminApi({ origin: gateway.origin, adminKey });
  const account = await admin.createAccount({ name: 'outage' });
  const openaiWith = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0, timeout: 15_000 });
  const terminator = new pg.Client({ connectionString: postgresUrl });
  await terminator.connect();
  return {
    gateway,
    proxy,
    ledger,
    adminKey,
    newKey: async () => (await admin.createKey(account.id, { name: 'k' })).key,
    openaiWith,
    /** Ends the gateway's server processes, and only those (found by its application name); waits until they are gone. */
    terminateBackends: async () => {
      const { rows } = await terminator.query('SELECT pg_terminate_backend(pid, 2000) FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
      return rows.length;
    },
    close: async () => {
      if (gateway.child.exitCode === null) gateway.child.kill('SIGKILL');
      await gateway.exited;
      await terminator.end();
      await ledger.destroy();
      await proxy.close();
      await database.cleanup();
    },
  };
}

/** Waits until every answered request has its usage row; returns the IDs still missing after `timeoutMs`. */
async function missingRows(ledger: GatewayDb, answers: readonly Answer[], timeoutMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await ledger.selectFrom('usage_records').select('request_id').execute();
    const recorded = new Set(rows.map((row) => row.request_id));
    const missing = answers.map((answer) => answer.requestId).filter((id) => !recorded.has(id));
    if (missing.length === 0 || Date.now() > deadline) return missing;
    await sleep(200);
  }
}

function assertAlive(gateway: GatewayProcess) {
  assert.equal(gateway.child.exitCode, null, `the gateway exited:\n${gateway.output()}`);
  assert.doesNotMatch(gateway.output(), /Unhandled 'error' event|uncaughtException/);
}

/** Lets the load run on 1.5 s past the outage, so requests after recovery are in it too, then stops it. */
async function finishLoad(stop: { now: boolean }, load: { done: Promise<unknown> }): Promise<void> {
  await sleep(1_500);
  stop.now = true;
  await load.done;
}

/** A request that needs the store, with its answer's status, retry-after, body and how long it took. */
async function probe(url: string, init: RequestInit) {
  const started = Date.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, any>, ms: Date.now() - started };
}

describe('PostgreSQL outage under load (a gateway process behind a proxy to PostgreSQL)', () => {
  test('5 s blackhole: the process lives, known keys keep working, every answered request gets its row; the store-bound get 503 in their shape', async (t) => {
    const setup = await gatewayBehindProxy();
    t.after(() => setup.close());
    const { gateway, proxy, ledger, adminKey } = setup;
    const loadKey = await setup.newKey();
    const unseenKey = await setup.newKey();
    const stored = await setup.openaiWith(loadKey).responses.create({ model, input: 'remember me' });
    const stop = { now: false };
    t.after(() => (stop.now = true)); // a failed assertion must not leave the load running
    const load = keepCalling(setup.openaiWith(loadKey), 6, stop);
    await untilAnswered(load, 30);

    proxy.cut('blackhole');
    const cutAt = Date.now();
    let probes;
    try {
      // Past the key cache's 1 s, so the load's key has been looked up (and served) during the outage.
      await sleep(1_500);
      const asKey = (key: string, extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}`, ...extra });
      probes = await Promise.all([
        probe(`${gateway.origin}/v1/chat/completions`, { method: 'POST', headers: asKey(unseenKey), body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }) }),
        probe(`${gateway.origin}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': unseenKey, 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }),
        }),
        probe(`${gateway.origin}/v1beta/models/${model}:generateContent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': unseenKey },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
        }),
        probe(`${gateway.origin}/admin/v1/accounts`, { headers: { authorization: `Bearer ${adminKey}` } }),
        probe(`${gateway.origin}/v1/responses/${stored.id}`, { headers: asKey(loadKey) }),
      ]);
      await sleep(cutAt + 5_000 - Date.now());
    } finally {
      proxy.restore();
    }
    const restoredAt = Date.now();
    await finishLoad(stop, load);

    assertAlive(gateway);
    const [openai, anthropic, gemini, adminCall, storedRead] = probes;
    for (const [name, answer] of Object.entries({ openai, anthropic, gemini, adminCall, storedRead })) {
      assert.equal(answer.retryAfter, '5', `${name}: retry-after`);
      assert.ok(answer.ms < 4_000, `${name}: answered after ${answer.ms} ms`);
    }
    for (const answer of [openai, adminCall, storedRead]) {
      assert.equal(answer.status, 503);
      assert.deepEqual(answer.body, { error: { message: answer.body.error.message, type: 'server_error', param: null, code: 'store_unavailable' } });
    }
    assert.equal(anthropic.status, 529, "Anthropic's status for overloaded_error");
    assert.deepEqual(anthropic.body, { type: 'error', error: { type: 'overloaded_error', message: anthropic.body.error.message } });
    assert.equal(gemini.status, 503);
    assert.deepEqual(gemini.body, { error: { code: 503, message: gemini.body.error.message, status: 'UNAVAILABLE' } });

    assert.deepEqual(load.failures, [], 'the load key kept working from the key cache');
    const duringOutage = load.answers.filter((answer) => answer.at > cutAt + 1_000 && answer.at < restoredAt).length;
    t.diagnostic(`${load.answers.length} answered, ${duringOutage} of them during the outage; probes took ${probes.map((answer) => answer.ms).join(', ')} ms`);
    assert.ok(duringOutage >= 10, `only ${duringOutage} requests answered during the outage`);
    assert.deepEqual(await missingRows(ledger, load.answers), [], `of ${load.answers.length} answered requests`);

    // Back by itself: a key the gateway never saw authenticates, the admin API answers.
    const after = await setup.openaiWith(unseenKey).chat.completions.create({ model, messages: [{ role: 'user', content: 'back?' }] });
    assert.equal(after.object, 'chat.completion');
    assert.equal((await probe(`${gateway.origin}/admin/v1/accounts`, { headers: { authorization: `Bearer ${adminKey}` } })).status, 200);
  });

  test('pg_terminate_backend under load, then a restart (connections dropped, refused for 3 s): the process lives and no row is lost', async (t) => {
    const setup = await gatewayBehindProxy();
    t.after(() => setup.close());
    const { gateway, proxy, ledger } = setup;
    const stop = { now: false };
    t.after(() => (stop.now = true)); // a failed assertion must not leave the load running
    const load = keepCalling(setup.openaiWith(await setup.newKey()), 6, stop);
    await untilAnswered(load, 30);

    // What a failover does to the gateway's connections, repeatedly, whatever they are doing.
    let terminated = 0;
    for (let round = 0; round < 8; round++) {
      terminated += await setup.terminateBackends();
      await sleep(250);
    }
    assert.ok(terminated > 0, 'the gateway had connections to end');
    assertAlive(gateway);

    // A restart: the server ends every connection and refuses new ones until it is up again.
    await setup.terminateBackends();
    proxy.cut('reset');
    const cutAt = Date.now();
    try {
      await sleep(3_000);
    } finally {
      proxy.restore();
    }
    const restoredAt = Date.now();
    await finishLoad(stop, load);

    assertAlive(gateway);
    assert.deepEqual(load.failures, []);
    t.diagnostic(`${terminated} server processes terminated; ${load.answers.length} answered`);
    assert.ok(load.answers.some((answer) => answer.at > cutAt + 1_000 && answer.at < restoredAt), 'requests were answered while the server was down');
    assert.deepEqual(await missingRows(ledger, load.answers), [], `of ${load.answers.length} answered requests`);

    gateway.child.kill('SIGTERM');
    assert.equal(await gateway.exited, 0, gateway.output());
  });
});
