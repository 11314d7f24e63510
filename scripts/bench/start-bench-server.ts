import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { BenchServerCommand, BenchServerReport, BenchServerRole } from './bench-server-process.js';
import { onCleanup } from './cleanup.js';
import { repoRoot } from './repo-root.js';

export interface BenchServer {
  port: number;
  pid: number;
  /** Sends a command and resolves with the child's answer (one command at a time). */
  command(command: BenchServerCommand): Promise<BenchServerReport>;
  stop(): Promise<void>;
}

/** Forks bench-server-process.ts in the given role and resolves once it listens on its random port. */
export async function startBenchServer(role: BenchServerRole, args: string[] = []): Promise<BenchServer> {
  const child = fork(new URL('./bench-server-process.ts', import.meta.url).pathname, [role, ...args], {
    cwd: repoRoot,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  onCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const exited = once(child, 'exit');
  const nextReport = () =>
    Promise.race([
      once(child, 'message').then(([message]) => message as BenchServerReport),
      exited.then(([code]) => Promise.reject(new Error(`bench ${role} exited with ${code}`))),
    ]);

  const listening = await nextReport();
  if (listening.type !== 'listening') throw new Error(`bench ${role} did not report its port`);
  return {
    port: listening.port,
    pid: child.pid!,
    command: (command) => {
      const answer = nextReport();
      child.send(command);
      return answer;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
