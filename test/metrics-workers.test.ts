// Prometheus metrics with WORKERS=2: whichever worker a scrape reaches, and on metrics.port the primary
// itself, one scrape answers for the requests of both workers (prom-client's AggregatorRegistry).
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../scripts/bench/free-port.js';
import { parsePrometheusText, sumOf } from './helpers/prometheus-text.js';
import { runKeysCli, spawnGateway, type GatewayProcess } from './helpers/spawn-gateway.js';

const adminKey = `admin-${Math.random().toString(36).slice(2)}`;
const requests = 10;

/** Two workers, both listening, with metrics on as `metrics` says, and a key made by the CLI. */
async function twoWorkers(metrics: string): Promise<{ gateway: GatewayProcess; key: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-metrics-'));
  const configPath = join(dir, 'gateway.yaml');
  await writeFile(configPath, `providers:\n  - { id: local, type: builtin, chunk_delay_ms: 0 }\nmodels:\n  - { id: echo, provider: local, capabilities: [chat, streaming] }\nmetrics: ${metrics}\n`);
  const gateway = await spawnGateway({ WORKERS: '2', GATEWAY_CONFIG: configPath, GATEWAY_ADMIN_KEY: adminKey });
  for (const deadline = Date.now() + 20_000; gateway.output().split('"msg":"gateway listening"').length - 1 < 2; await sleep(50)) {
    assert.ok(Date.now() < deadline, `two workers did not start:\n${gateway.output()}`);
  }
  const { stdout } = await runKeysCli(gateway.dataDir, ['create', '--name', 'metrics', '--json']);
  return { gateway, key: (JSON.parse(stdout) as { key: string }).key };
}

/** Chat requests, each on a new connection, so that the cluster hands them to both workers in turn. */
async function chatOnNewConnections(origin: string, key: string): Promise<void> {
  for (let index = 0; index < requests; index++) {
    const response = await fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: `request ${index}` }] }),
    });
    assert.equal(response.status, 200, await response.text());
  }
}

const chatRequests = (text: string) => sumOf(parsePrometheusText(text), 'gateway_requests_total', { operation: 'createChatCompletion', model: 'echo', status: '200' });

test('WORKERS=2: a scrape of either worker on the gateway port counts the requests of both', async () => {
  const { gateway, key } = await twoWorkers('{ enabled: true }');
  try {
    await chatOnNewConnections(gateway.origin, key);
    // Each scrape on a new connection too: both workers answer some, and each answers for all.
    for (let scrape = 0; scrape < 4; scrape++) {
      const response = await fetch(`${gateway.origin}/metrics`, { headers: { authorization: `Bearer ${adminKey}`, connection: 'close' } });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.equal(chatRequests(text), requests, `scrape ${scrape}`);
    }
  } finally {
    gateway.child.kill('SIGKILL');
  }
});

test('WORKERS=2 with metrics.port: the primary serves the aggregate of both workers without a key', async () => {
  const port = await freePort();
  const { gateway, key } = await twoWorkers(`{ enabled: true, port: ${port} }`);
  try {
    await chatOnNewConnections(gateway.origin, key);
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(response.status, 200);
    assert.equal(chatRequests(await response.text()), requests);
    assert.equal((await fetch(`${gateway.origin}/metrics`, { headers: { authorization: `Bearer ${adminKey}` } })).status, 404);
  } finally {
    gateway.child.kill('SIGKILL');
  }
});
