import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { holdsSecret, holdsSecretsShownIn, showedLater } from './exposure.js';

const root = new URL('../..', import.meta.url).pathname;

/** What `npm start` runs: scripts/build-server.mjs bundles it (scripts/run-tests.mjs does before any test). */
export const gatewayBundle = join(root, 'build/gateway.mjs');

export interface GatewayProcess {
  child: ChildProcessWithoutNullStreams;
  origin: string;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Another way to start it: a command and the folder it runs in (the installed package's bin, for one). */
export interface GatewayCommand {
  args: string[];
  cwd: string;
}

/**
 * Runs the production bundle as `npm start` does (build/gateway.mjs, which the test runner builds first),
 * or the given command, in its own process with its own data directory, on a free port, and resolves once
 * it logged that it listens. For tests of start-up, signals and the CLI.
 */
export async function spawnGateway(env: Record<string, string> = {}, command: GatewayCommand = { args: [gatewayBundle], cwd: root }): Promise<GatewayProcess> {
  const dataDir = env.GATEWAY_DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'gateway-proc-')));
  const child = spawn(process.execPath, command.args, {
    cwd: command.cwd,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', GATEWAY_DATA_DIR: dataDir, ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  holdsSecret(env.GATEWAY_ADMIN_KEY);
  showedLater('spawned gateway output', () => output);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const port = await new Promise<number>((resolve, reject) => {
    // Killed, not left running: a live child keeps its pipes, and with them the test file, open for good.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start:\n${output}`));
    }, 30_000);
    const onData = () => {
      const match = /"port":(\d+).*"msg":"gateway listening"/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening:\n${output}`));
    });
  });
  return { child, origin: `http://127.0.0.1:${port}`, dataDir, output: () => output, exited };
}

/** Runs the key CLI against a data directory and returns its stdout. */
export async function runKeysCli(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', ...args], {
    cwd: root,
    env: { ...process.env, GATEWAY_DATA_DIR: dataDir },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = await once(child, 'exit');
  // The CLI prints a new key's secret once, on purpose; it must not show anywhere else.
  holdsSecretsShownIn(stdout);
  return { code: code as number | null, stdout, stderr };
}
