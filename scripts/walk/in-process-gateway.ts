import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup } from '../bench/cleanup.js';
import { freePort } from '../bench/free-port.js';
import { createApiKey } from '../bench/start-gateway-process.js';

export interface InProcessGateway {
  origin: string;
  apiKey: string;
  /** The model routed to the Anthropic upstream. */
  model: string;
}

/**
 * Runs the gateway in this process as `npm start` runs it: its entry, server/main.ts, imported with the
 * environment a deployment sets (NODE_ENV=production, LOG_LEVEL=warn), a temp SQLite store and a config
 * with one Anthropic provider at `upstreamOrigin` and one model on it. Nothing else of server/ is imported,
 * so the walk survives files moving. The key comes from the key CLI in a process of its own, as the bench
 * makes it (start-gateway-process.ts). The process keeps the gateway until it exits (the temp directory goes then).
 */
export async function startGatewayInProcess(upstreamOrigin: string): Promise<InProcessGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-walk-'));
  onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const configPath = join(dataDir, 'gateway.yaml');
  const model = 'walk-claude';
  writeFileSync(
    configPath,
    `providers:
  - id: anthropic
    type: anthropic
    base_url: ${upstreamOrigin}
    api_key: walk-upstream-key
models:
  - id: ${model}
    provider: anthropic
    upstream_model: claude-sonnet-4-5
    capabilities: [chat, streaming]
`,
  );
  const port = await freePort();
  // Its own SQLite and limits in memory, whatever the caller's environment points at.
  const { GATEWAY_DATABASE_URL, DATABASE_URL, GATEWAY_REDIS_URL, REDIS_URL, GATEWAY_ADMIN_KEY, WORKERS, GATEWAY_CONFIG, ...inherited } = process.env;
  const env = { ...inherited, NODE_ENV: 'production', LOG_LEVEL: 'warn', GATEWAY_DATA_DIR: dataDir, GATEWAY_CONFIG: configPath, PORT: String(port), HOST: '127.0.0.1' };
  const apiKey = await createApiKey(env);
  process.env = env;
  await import('../../server/main.js');
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`${origin}/healthz`).then((response) => response.ok, () => false))) {
    if (Date.now() > deadline) throw new Error('the gateway was not healthy after 30 s');
    await sleep(100);
  }
  return { origin, apiKey, model };
}
