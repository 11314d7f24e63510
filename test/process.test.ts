// The gateway as `npm start` runs it: no config, SQLite under GATEWAY_DATA_DIR, the key CLI beside it,
// graceful shutdown on SIGTERM and start-up errors that name the bad config field.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gatewayBundle, runKeysCli, spawnGateway } from './helpers/spawn-gateway.js';

test('serves the built-in model with no config, with keys made by the CLI', async () => {
  const gateway = await spawnGateway();
  try {
    assert.equal((await fetch(`${gateway.origin}/healthz`)).status, 200);
    const created = await runKeysCli(gateway.dataDir, ['create', '--name', 'cli', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const { key, id } = JSON.parse(created.stdout) as { key: string; id: string };
    assert.match(key, /^sk-gw-[A-Za-z0-9_-]{43}$/);

    const models = await fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(models.status, 200);
    assert.deepEqual(((await models.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id), ['builtin/echo', 'builtin/embed', 'builtin/image', 'builtin/image-edit']);

    const listed = await runKeysCli(gateway.dataDir, ['list', '--json']);
    assert.ok(!listed.stdout.includes(key), 'list never prints secrets');
    assert.equal(JSON.parse(listed.stdout)[0].id, id);

    const minted = await fetch(`${gateway.origin}/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'minted' }),
    });
    const { key: mintedKey } = (await minted.json()) as { key: string };

    assert.equal((await runKeysCli(gateway.dataDir, ['revoke', id])).code, 0);
    // The server caches valid keys for at most one second; a CLI revocation is seen after that, and takes
    // the keys minted from the revoked one with it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const revoked of [key, mintedKey]) {
      const refused = await fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${revoked}` } });
      assert.equal(refused.status, 401);
    }
    assert.ok(!gateway.output().includes(key), 'the key never reaches the logs');
  } finally {
    gateway.child.kill('SIGKILL');
  }
});

test('SIGTERM finishes an in-flight stream, refuses new connections and exits 0', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-drain-'));
  const configPath = join(dir, 'gateway.yaml');
  await writeFile(
    configPath,
    'providers:\n  - { id: slow, type: builtin, chunk_delay_ms: 40 }\nmodels:\n  - { id: slow-echo, provider: slow, capabilities: [chat, streaming] }\n',
  );
  const gateway = await spawnGateway({ GATEWAY_CONFIG: configPath });
  const { stdout } = await runKeysCli(gateway.dataDir, ['create', '--name', 'drain', '--json']);
  const { key } = JSON.parse(stdout) as { key: string };

  const words = Array.from({ length: 20 }, (_, index) => `word${index}`).join(' ');
  const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'slow-echo', stream: true, messages: [{ role: 'user', content: words }] }),
  });
  assert.equal(response.status, 200);
  const reader = response.body!.getReader();
  await reader.read(); // the stream has started
  gateway.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 100));
  await assert.rejects(fetch(`${gateway.origin}/healthz`), 'new connections are refused while draining');

  let body = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) body += new TextDecoder().decode(chunk.value);
  assert.match(body, /word19/);
  assert.match(body, /data: \[DONE\]\n\n$/);
  assert.equal(await gateway.exited, 0);
});

test('a bad config stops start-up with a message naming the field', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-badconfig-'));
  const configPath = join(dir, 'gateway.yaml');
  await writeFile(configPath, 'providers:\n  - { id: p, type: openia }\nmodels: []\n');
  const child = spawn(process.execPath, [gatewayBundle], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, PORT: '0', GATEWAY_CONFIG: configPath, GATEWAY_DATA_DIR: dir },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  assert.match(stderr, /providers\[0\]\.type/);
});

test('WORKERS=2 serves the port from two processes, replaces one that dies, and exits 0 on SIGTERM', async () => {
  const gateway = await spawnGateway({ WORKERS: '2' });
  const primary = gateway.child.pid!;
  try {
    const listening = () => gateway.output().split('"msg":"gateway listening"').length - 1;
    // Both must listen before one dies: with PORT=0 the port lives only while some worker holds it.
    const workers = await waitForWorkers(primary, (pids) => pids.length === 2 && listening() === 2);
    for (let index = 0; index < 10; index++) assert.equal((await fetch(`${gateway.origin}/healthz`)).status, 200);

    process.kill(workers[0], 'SIGKILL');
    const replaced = await waitForWorkers(primary, (pids) => pids.length === 2 && !pids.includes(workers[0]) && listening() === 3);
    assert.ok(replaced.includes(workers[1]));
    assert.equal((await fetch(`${gateway.origin}/healthz`, { headers: { connection: 'close' } })).status, 200);

    gateway.child.kill('SIGTERM');
    assert.equal(await gateway.exited, 0, gateway.output());
    assert.deepEqual(await workerPids(primary), [], 'every worker has exited');
  } finally {
    gateway.child.kill('SIGKILL');
  }
});

/** The PIDs of a process's children (the cluster's workers), from ps. */
async function workerPids(parent: number): Promise<number[]> {
  const ps = spawn('ps', ['-o', 'pid=', '--ppid', String(parent)]);
  let out = '';
  ps.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(ps, 'exit');
  return out.split('\n').map((line) => Number(line.trim())).filter((pid) => pid > 0);
}

async function waitForWorkers(parent: number, done: (pids: number[]) => boolean): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const pids = await workerPids(parent);
    if (done(pids)) return pids;
    if (Date.now() > deadline) throw new Error(`workers of ${parent}: ${pids.join(', ') || 'none'}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
