// `kill -9` under load, then a restart on the same data directory: the SQLite store opens consistent
// (integrity check, migrations, keys), every usage row the store had acknowledged (committed) before the
// kill is still there, and the restarted gateway serves and meters again. Rows still queued in memory at
// the kill (up to one flush interval, a second, of requests) are lost: that is the write-behind ledger's
// documented trade, and why SIGTERM flushes (usage-and-limits.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import OpenAI from 'openai';
import { openDatabase } from '../server/store/database.js';
import { runKeysCli, spawnGateway, type GatewayProcess } from './helpers/spawn-gateway.js';

const model = 'builtin/echo';

/** Requests in a loop from `clients` callers, streaming every other one, until `stop` is set; counts the answers. */
function keepCalling(openai: OpenAI, clients: number, stop: { now: boolean }): Promise<number> {
  let answered = 0;
  const caller = async (id: number) => {
    for (let i = 0; !stop.now; i++) {
      try {
        const messages = [{ role: 'user' as const, content: `caller ${id}, request ${i}` }];
        if (i % 2 === 0) {
          await openai.chat.completions.create({ model, messages });
        } else {
          const stream = await openai.chat.completions.create({ model, messages, stream: true });
          for await (const _chunk of stream);
        }
        answered += 1;
      } catch {
        return; // the gateway was killed
      }
    }
  };
  return Promise.all(Array.from({ length: clients }, (_, id) => caller(id))).then(() => answered);
}

async function usageIds(dataDir: string): Promise<Set<string>> {
  const db = await openDatabase({ dataDir });
  try {
    const rows = await db.selectFrom('usage_records').select('id').execute();
    return new Set(rows.map((row) => row.id));
  } finally {
    await db.destroy();
  }
}

function openaiFor(gateway: GatewayProcess, key: string): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${gateway.origin}/v1`, maxRetries: 0, timeout: 10_000 });
}

test('kill -9 under load: the store reopens consistent and no acknowledged usage row is lost', async (t) => {
  const first = await spawnGateway();
  const { dataDir } = first;
  const { key } = JSON.parse((await runKeysCli(dataDir, ['create', '--name', 'crash', '--json'])).stdout) as { key: string };
  const stop = { now: false };
  const load = keepCalling(openaiFor(first, key), 16, stop);

  // Under load until the ledger has committed several batches; then, with requests and a batch in flight, kill.
  let acknowledged = new Set<string>();
  for (let waited = 0; acknowledged.size < 200 && waited < 20_000; waited += 250) {
    await sleep(250);
    acknowledged = await usageIds(dataDir);
  }
  assert.ok(acknowledged.size >= 200, `the ledger committed only ${acknowledged.size} rows under load`);
  acknowledged = await usageIds(dataDir);
  first.child.kill('SIGKILL');
  assert.equal(await first.exited, null, 'killed, not exited');
  stop.now = true;
  const answeredBeforeKill = await load;

  const second = await spawnGateway({ GATEWAY_DATA_DIR: dataDir });
  try {
    const db = await openDatabase({ dataDir });
    try {
      const { rows } = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db);
      assert.deepEqual(rows, [{ integrity_check: 'ok' }]);
    } finally {
      await db.destroy();
    }
    const afterRestart = await usageIds(dataDir);
    const lost = [...acknowledged].filter((id) => !afterRestart.has(id));
    assert.deepEqual(lost, [], 'every row committed before the kill is still in the ledger');
    assert.ok(afterRestart.size <= answeredBeforeKill + 16, 'no row without a request');
    t.diagnostic(`${acknowledged.size} rows acknowledged at the kill, ${afterRestart.size} after the restart, ${answeredBeforeKill} requests answered`);

    // The same key works against the restarted gateway, and its requests are metered again.
    const openai = openaiFor(second, key);
    await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'after the crash' }] });
    let now = afterRestart.size;
    for (let waited = 0; now === afterRestart.size && waited < 5_000; waited += 250) {
      await sleep(250);
      now = (await usageIds(dataDir)).size;
    }
    assert.equal(now, afterRestart.size + 1, 'the restarted gateway records usage');
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
