// /readyz against real outages: a gateway process on PostgreSQL through a proxy the test cuts, and on a
// Redis of the test's own that it kills; and during a SIGTERM drain. /healthz stays 200 throughout.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startPostgresProxy } from './helpers/postgres-proxy.js';
import { startPrivateRedis } from './helpers/private-redis.js';
import { runKeysCli, spawnGateway } from './helpers/spawn-gateway.js';
import { postgresSchemaUrl } from './helpers/test-databases.js';

interface Readiness {
  status: string;
  checks: { store: string; redis: string; draining: boolean };
}

async function readiness(origin: string): Promise<{ code: number; body: Readiness }> {
  const response = await fetch(`${origin}/readyz`);
  return { code: response.status, body: (await response.json()) as Readiness };
}

/** Polls /readyz until it answers `code`; an outage or a recovery shows within a few seconds. */
async function becomes(origin: string, code: number): Promise<Readiness> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await readiness(origin);
    if (answer.code === code) return answer.body;
    if (Date.now() > deadline) throw new Error(`/readyz stayed ${answer.code}: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('503 naming the store or Redis while either is unreachable, 200 again when they are back; /healthz stays 200', async () => {
  const database = await postgresSchemaUrl();
  const proxy = await startPostgresProxy();
  const redis = await startPrivateRedis();
  after(async () => {
    await redis.kill();
    await proxy.close();
    await database.cleanup();
  });
  const gateway = await spawnGateway({
    GATEWAY_DATABASE_URL: proxy.urlThrough(database.url),
    GATEWAY_REDIS_URL: redis.url,
    GATEWAY_DATABASE_CONNECT_TIMEOUT_MS: '1000',
    GATEWAY_DATABASE_QUERY_TIMEOUT_MS: '2000',
  });
  try {
    assert.deepEqual(await readiness(gateway.origin), { code: 200, body: { status: 'ready', checks: { store: 'ok', redis: 'ok', draining: false } } });

    await redis.kill();
    assert.deepEqual((await becomes(gateway.origin, 503)).checks, { store: 'ok', redis: 'unreachable', draining: false });
    assert.equal((await fetch(`${gateway.origin}/healthz`)).status, 200, 'liveness does not depend on Redis');
    await redis.restart();
    await becomes(gateway.origin, 200);

    proxy.cut('reset');
    assert.deepEqual((await becomes(gateway.origin, 503)).checks, { store: 'unreachable', redis: 'ok', draining: false });
    assert.equal((await fetch(`${gateway.origin}/healthz`)).status, 200, 'liveness does not depend on the store');
    proxy.restore();
    await becomes(gateway.origin, 200);
  } finally {
    gateway.child.kill('SIGKILL');
  }
});

test('503 with draining: true for a request that arrives on an open connection during the SIGTERM drain', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-readyz-'));
  const configPath = join(dir, 'gateway.yaml');
  await writeFile(configPath, 'providers:\n  - { id: slow, type: builtin, chunk_delay_ms: 40 }\nmodels:\n  - { id: slow-echo, provider: slow, capabilities: [chat, streaming] }\n');
  const gateway = await spawnGateway({ GATEWAY_CONFIG: configPath });
  try {
    assert.equal((await readiness(gateway.origin)).body.checks.redis, 'not_configured');
    const { stdout } = await runKeysCli(gateway.dataDir, ['create', '--name', 'drain', '--json']);
    const { key } = JSON.parse(stdout) as { key: string };
    // A slow stream keeps the drain going; a connection whose request has begun is not idle, so the drain
    // leaves it open, and the request completed after SIGTERM is answered.
    const stream = await fetch(`${gateway.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow-echo', stream: true, messages: [{ role: 'user', content: 'one two three four five six seven eight' }] }),
    });
    const socket = connect(Number(new URL(gateway.origin).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /readyz HTTP/1.1\r\nHost: gateway\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    gateway.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.end('\r\n');
    await new Promise((resolve) => socket.once('close', resolve));
    assert.match(answer, /^HTTP\/1\.1 503 /);
    assert.deepEqual(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).checks, { store: 'ok', redis: 'not_configured', draining: true });
    await stream.text();
    assert.equal(await gateway.exited, 0);
  } finally {
    gateway.child.kill('SIGKILL');
  }
});
