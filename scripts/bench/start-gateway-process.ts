import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchGatewayConfig } from './bench-gateway-config.js';
import { onCleanup } from './cleanup.js';
import { freePort } from './free-port.js';
import { GatewayLogDigest, type GatewayLogSummary } from './gateway-log-digest.js';
import { repoRoot } from './repo-root.js';

export interface GatewayProcess {
  origin: string;
  port: number;
  pid: number;
  apiKey: string;
  /** Its GATEWAY_DATA_DIR (the SQLite store is `gateway.sqlite` in it), removed on exit. */
  dataDir: string;
  /** What the gateway printed so far (at LOG_LEVEL=warn: only warnings and errors; none expected). */
  logSummary(): GatewayLogSummary;
  stop(): Promise<void>;
}

/**
 * Runs the gateway as production does (`npm start`: the bundle scripts/build-server.mjs makes, run by plain
 * Node, NODE_ENV=production, LOG_LEVEL=warn) in its own process, with SQLite and config in a temp directory
 * that is removed on exit, and an API key made beforehand with the key CLI. Resolves once /healthz answers.
 * `nodeArgs` go before the script (e.g. `--cpu-prof`); `workers` sets WORKERS; `config` (gateway.yaml text)
 * replaces the bench's config (bench-gateway-config.ts); `databaseUrl` (PostgreSQL) replaces the SQLite store; `adminKey` turns the admin API on.
 * `wrapper` is a command that runs Node (e.g. valgrind and its options), `env` adds variables, and
 * `healthTimeoutMs` (default 30 s) is how long start-up may take (far longer under valgrind).
 */
export async function startGatewayProcess(
  upstreamPort: number,
  options: {
    nodeArgs?: string[];
    workers?: number;
    config?: string;
    databaseUrl?: string;
    adminKey?: string;
    wrapper?: string[];
    env?: Record<string, string>;
    healthTimeoutMs?: number;
  } = {},
): Promise<GatewayProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
  const configPath = join(dataDir, 'gateway.yaml');
  writeFileSync(configPath, options.config ?? benchGatewayConfig(upstreamPort));
  const env = gatewayEnvironment({ ...options.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', GATEWAY_DATA_DIR: dataDir, GATEWAY_CONFIG: configPath });
  if (options.workers !== undefined) env.WORKERS = String(options.workers);
  if (options.databaseUrl !== undefined) env.GATEWAY_DATABASE_URL = options.databaseUrl;
  if (options.adminKey !== undefined) env.GATEWAY_ADMIN_KEY = options.adminKey;

  const [apiKey, script] = await Promise.all([createApiKey(env), productionBuild()]);
  const port = await freePort();
  const [command, ...args] = [...(options.wrapper ?? []), process.execPath, ...(options.nodeArgs ?? []), script];
  const child = spawn(command!, args, {
    cwd: repoRoot,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const exited = once(child, 'exit');
  const stdout = new GatewayLogDigest();
  const stderr = new GatewayLogDigest();
  child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
  const output = () => [...stdout.summary().firstLines, ...stderr.summary().firstLines].join('\n');

  const origin = `http://127.0.0.1:${port}`;
  await waitForHealth(origin, exited, output, options.healthTimeoutMs ?? 30_000);
  return {
    origin,
    port,
    pid: child.pid!,
    apiKey,
    dataDir,
    logSummary: () => mergeSummaries(stdout.summary(), stderr.summary()),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM'); // drains in-flight requests, then exits 0
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The caller's environment (WORKERS and anything else a deployment would set pass through) without the
 * variables that would point the gateway at a shared PostgreSQL or Redis instead of its own temp SQLite.
 */
function gatewayEnvironment(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const { GATEWAY_DATABASE_URL, DATABASE_URL, GATEWAY_REDIS_URL, REDIS_URL, GATEWAY_ADMIN_KEY, ...inherited } = process.env;
  return { ...inherited, ...overrides };
}

let built: Promise<string> | undefined;

/** Builds the production bundle once per bench run, from the sources as they are now; resolves with its path. */
function productionBuild(): Promise<string> {
  built ??= (async () => {
    const child = spawn(process.execPath, ['scripts/build-server.mjs'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
    const [code] = await once(child, 'exit');
    if (code !== 0) throw new Error(`scripts/build-server.mjs exited with ${code}`);
    return join(repoRoot, 'build/gateway.mjs');
  })();
  return built;
}

/** Makes an API key with the key CLI, in a process of its own, against the store `env` points at. */
export async function createApiKey(env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', 'create', '--name', 'bench', '--json'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`key CLI exited with ${code}:\n${output}`);
  return (JSON.parse(output) as { key: string }).key;
}

async function waitForHealth(origin: string, exited: Promise<unknown[]>, output: () => string, timeoutMs: number): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`gateway exited before it was healthy:\n${output()}`);
    const healthy = await fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await sleep(100);
  }
  throw new Error(`gateway was not healthy after ${timeoutMs / 1000} s:\n${output()}`);
}

function mergeSummaries(first: GatewayLogSummary, second: GatewayLogSummary): GatewayLogSummary {
  return {
    lines: first.lines + second.lines,
    groups: [...first.groups, ...second.groups].sort((x, y) => y.count - x.count),
    firstLines: [...first.firstLines, ...second.firstLines].slice(0, 3),
  };
}
