/**
 * Installs the pinned coding agents from the npm registry into a cache folder outside the repository
 * (`${XDG_CACHE_HOME:-~/.cache}/unified-model-api/agents/<package>@<version>`), once: a later run, or CI on
 * the same machine, reuses what is there. Each install goes to a temporary folder that is renamed into place
 * when it succeeded, so an interrupted install is never mistaken for a finished one.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentClient } from './clients/agent-client.js';

export const agentsCacheDir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'unified-model-api', 'agents');

/** The packages one install holds, each `name@version`: the client's own first. */
export function installedPackages(client: AgentClient): string[] {
  return [`${client.npmPackage}@${client.version}`, ...(client.alsoInstall ?? [])];
}

/** One folder per set of pinned packages, so changing any pin makes a new install rather than reusing a stale one. */
export function installDir(client: AgentClient): string {
  return join(agentsCacheDir, installedPackages(client).map((spec) => spec.replace('/', '+')).join('+'));
}

export function agentBin(client: AgentClient): string {
  return join(installDir(client), 'node_modules', '.bin', client.bin);
}

export function isInstalled(client: AgentClient): boolean {
  return existsSync(agentBin(client));
}

export async function installAgent(client: AgentClient): Promise<void> {
  if (isInstalled(client)) return;
  const target = installDir(client);
  const staging = `${target}.installing-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  await writeFile(join(staging, 'package.json'), `${JSON.stringify({ private: true, allowScripts: { [client.npmPackage]: true } })}\n`);
  // Only the client's own install script runs: Claude Code's and opencode's link their native binary from the
  // platform package npm installed (their wrappers refuse to start without it). Their dependencies' scripts
  // build PTY and keychain modules that -p/exec/run never load, and npm (11.19 on) skips every script that
  // the folder's `allowScripts` does not name.
  // --loglevel=error: npm itself runs on Node 20 and would warn about each package that wants a newer one.
  const npm = spawn('npm', ['install', '--no-save', '--no-fund', '--no-audit', '--loglevel=error', ...installedPackages(client)], {
    cwd: staging,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code] = (await once(npm, 'exit')) as [number | null];
  if (code !== 0) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`npm install ${installedPackages(client).join(' ')} failed with exit code ${code}`);
  }
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
}
