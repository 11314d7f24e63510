import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

const root = new URL('../..', import.meta.url).pathname;

/** The spec as Prism loads it (see scripts/prism-spec.mjs for how it differs from generated/openapi.json). */
export const prismSpec = 'generated/openapi.prism.json';

export interface Prism {
  origin: string;
  output: () => string;
  stop(): Promise<void>;
}

/** `prism <args>` on a port of its choosing (`--port 0`), resolved once it says where it listens. */
export async function startPrism(args: string[]): Promise<Prism> {
  const child: ChildProcess = spawn(`${root}node_modules/.bin/prism`, [...args, '--host', '127.0.0.1', '--port', '0'], { cwd: root });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${output}`)), 30_000);
    const onData = () => {
      const match = /Prism is listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    void exited.then(() => reject(new Error(`prism exited:\n${output}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { origin, output: () => output, stop };
}
