// An OpenAI batch across gateway processes: a gateway stopped by SIGTERM mid-batch and started again on the same
// SQLite file and data directory finishes the batch, and its output file holds every line exactly once, with one
// ledger row per line (the runner's own restart guarantees are in message-batches-restart.test.ts).
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { components } from '../generated/api.js';
import { adminApi } from './helpers/admin-api.js';
import { chatLine, fileLines, openAIBatchClient, settled, uploadBatchInput } from './helpers/openai-batches.js';
import { spawnGateway } from './helpers/spawn-gateway.js';

type UsageRecord = components['schemas']['UsageRecord'];

const lines = 16;
const adminKey = 'admin-openai-batch-restart-0123456789';

test('SQLite: SIGTERM mid-batch, then a new process on the same store finishes it; the output file has every line once', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'openai-batch-restart-'));
  // The built-in model answers a word every 40 ms, so each line takes a few hundred ms; two at a time.
  const config = {
    providers: [{ id: 'builtin', type: 'builtin', chunk_delay_ms: 40 }],
    models: [{ id: 'builtin/echo', provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming'] }],
    batches: { lines_in_flight: 2, poll_interval_ms: 100, lease_seconds: 2 },
  };
  await writeFile(join(dataDir, 'gateway.json'), JSON.stringify(config));
  const env = { GATEWAY_CONFIG: join(dataDir, 'gateway.json'), GATEWAY_ADMIN_KEY: adminKey, GATEWAY_DATA_DIR: dataDir };
  const first = await spawnGateway(env);
  const admin = adminApi({ origin: first.origin, adminKey });
  const account = await admin.createAccount({ name: 'batches' });
  const key = (await admin.createKey(account.id, { name: 'batch maker' })).key;
  const client = openAIBatchClient(first, key);
  const input = await uploadBatchInput(client, Array.from({ length: lines }, (_, index) => chatLine(`line-${index}`, 'builtin/echo', { messages: [{ role: 'user', content: `line ${index} says a few words` }] })));
  const { id } = await client.batches.create({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h' });
  let completedAtStop = 0;
  while (completedAtStop < 3) {
    completedAtStop = (await client.batches.retrieve(id)).request_counts?.completed ?? 0;
    await sleep(25);
  }
  first.child.kill('SIGTERM');
  assert.ok(completedAtStop < lines - 2, `stopped mid-batch (${completedAtStop} of ${lines} done)`);
  assert.equal(await first.exited, 0);

  const second = await spawnGateway(env);
  try {
    const resumed = openAIBatchClient(second, key);
    const batch = await settled(resumed, id, 60_000);
    assert.equal(batch.status, 'completed');
    assert.deepEqual(batch.request_counts, { total: lines, completed: lines, failed: 0 });
    const output = await fileLines(resumed, batch.output_file_id);
    assert.deepEqual([...output.keys()], Array.from({ length: lines }, (_, index) => `line-${index}`));
    for (const [customId, line] of output) assert.match(line.response?.body.choices[0].message.content, new RegExp(`${customId.replace('-', ' ')} says`));
    const response = await fetch(`${second.origin}/v1/usage/records?limit=1000`, { headers: { authorization: `Bearer ${key}` } });
    const rows = ((await response.json()) as { data: UsageRecord[] }).data.filter((row) => row.batch_id === id);
    assert.equal(rows.length, lines, 'one ledger row per line');
    assert.equal(new Set(rows.map((row) => row.request_id)).size, lines);
    assert.deepEqual(new Set([...output.values()].map((line) => line.response?.request_id)), new Set(rows.map((row) => row.request_id)));
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
