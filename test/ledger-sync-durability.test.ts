// `ledger.durability: sync` under `kill -9`: a request's usage row is committed before the last byte of its
// answer is sent, so every request whose client received a complete answer has its row after the kill, on
// SQLite and on PostgreSQL. (With the default `batch`, the last second's rows are lost: crash-recovery.test.ts.)
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase, type GatewayDb } from '../server/store/database.js';
import { spawnGateway } from './helpers/spawn-gateway.js';
import { postgresSchemaUrl } from './helpers/test-databases.js';

const adminKey = 'admin-ledger-sync';
const config = [
  'providers:',
  '  - { id: builtin, type: builtin, chunk_delay_ms: 2 }',
  'models:',
  '  - { id: echo, provider: builtin, capabilities: [chat, streaming] }',
  'ledger: { durability: sync }',
  '',
].join('\n');

/** The requests the callers make in turn: JSON and streamed, over three protocols. */
const requests = [
  { path: '/v1/chat/completions', body: (text: string) => ({ model: 'echo', messages: [{ role: 'user', content: text }] }) },
  { path: '/v1/chat/completions', body: (text: string) => ({ model: 'echo', stream: true, messages: [{ role: 'user', content: text }] }) },
  { path: '/v1/messages', body: (text: string) => ({ model: 'echo', max_tokens: 50, stream: true, messages: [{ role: 'user', content: text }] }) },
  { path: '/v1beta/models/echo:generateContent', body: (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] }) },
];

interface Load {
  /** Request IDs of the answers the clients received whole (status 200, body read to its end). */
  complete: string[];
  /** Requests sent. */
  sent: number;
}

/** Requests in a loop from `clients` callers until `stop` is set or the gateway is gone. */
async function keepCalling(origin: string, key: string, clients: number, stop: { now: boolean }): Promise<Load> {
  const load: Load = { complete: [], sent: 0 };
  const caller = async (id: number) => {
    for (let i = 0; !stop.now; i++) {
      const request = requests[(id + i) % requests.length]!;
      load.sent += 1;
      try {
        const response = await fetch(`${origin}${request.path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(request.body(`caller ${id}, request ${i}`)),
        });
        // The whole body: a stream cut by the kill rejects here, even after its last event.
        await response.text();
        assert.equal(response.status, 200);
        load.complete.push(response.headers.get('x-request-id')!);
      } catch {
        return; // the gateway was killed
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, id) => caller(id)));
  return load;
}

async function ledgerRequestIds(db: GatewayDb): Promise<Set<string>> {
  const rows = await db.selectFrom('usage_records').select('request_id').execute();
  return new Set(rows.map((row) => row.request_id));
}

async function killUnderLoad(databaseUrl?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-sync-'));
  await writeFile(join(dir, 'gateway.yaml'), config);
  const gateway = await spawnGateway({ GATEWAY_CONFIG: join(dir, 'gateway.yaml'), GATEWAY_ADMIN_KEY: adminKey, ...(databaseUrl ? { GATEWAY_DATABASE_URL: databaseUrl } : {}) });
  const db = await openDatabase({ dataDir: gateway.dataDir, databaseUrl });
  try {
    const created = await fetch(`${gateway.origin}/admin/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'load' }),
    });
    assert.equal(created.status, 201);
    const { key } = (await created.json()) as { key: string };

    const stop = { now: false };
    const running = keepCalling(gateway.origin, key, 16, stop);
    // Under load for a while, then killed with requests (and their commits) in flight.
    let rows = 0;
    for (let waited = 0; rows < 300 && waited < 20_000; waited += 200) {
      await sleep(200);
      rows = (await ledgerRequestIds(db)).size;
    }
    assert.ok(rows >= 300, `only ${rows} rows under load`);
    gateway.child.kill('SIGKILL');
    assert.equal(await gateway.exited, null, 'killed, not exited');
    stop.now = true;
    const load = await running;

    const recorded = await ledgerRequestIds(db);
    const lost = load.complete.filter((requestId) => !recorded.has(requestId));
    assert.deepEqual(lost, [], `every complete answer has its row (${lost.length} of ${load.complete.length} lost)`);
    assert.ok(recorded.size <= load.sent, 'no row without a request');
    return `${load.complete.length} complete answers, ${recorded.size} rows, ${load.sent} requests sent`;
  } finally {
    await db.destroy();
  }
}

describe('kill -9 under load with ledger.durability: sync', () => {
  test('SQLite: every request answered in full has its usage row', async (t) => {
    t.diagnostic(await killUnderLoad());
  });

  test('PostgreSQL: every request answered in full has its usage row', async (t) => {
    const schema = await postgresSchemaUrl();
    try {
      t.diagnostic(await killUnderLoad(schema.url));
    } finally {
      await schema.cleanup();
    }
  });
});
