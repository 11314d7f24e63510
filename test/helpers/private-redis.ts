import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

/**
 * A redis-server of the test's own, for outages: the machine's shared Redis is never stopped. No
 * persistence, so a restart comes back empty, as a failed-over Redis would.
 */
export interface PrivateRedis {
  port: number;
  url: string;
  /** `kill -9` of this test's server (by its PID); resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port; resolves once it accepts connections. */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open but nothing is answered, as with a hung or overloaded Redis. */
  pause(): void;
  /** SIGCONT after `pause`. */
  resume(): void;
}

/**
 * Starts `redis-server` on a free port of 127.0.0.1. Kill it in `after` (also when a test failed).
 *
 * @example
 * const redis = await startPrivateRedis();
 * after(() => redis.kill());
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    async restart() {
      child = await launch(port);
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
  };
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start on port ${port}:\n${output}`));
    }, 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not be run (is it installed?): ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`));
    });
  });
  await ready;
  return child;
}

/** A port nothing listens on right now (the OS picks it; it is released before use). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
