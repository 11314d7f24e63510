import { setTimeout as sleep } from 'node:timers/promises';
import { readDescriptors } from './open-descriptors.js';

/**
 * Waits until the process has no TCP connection open (only its listening socket), checking every second,
 * for at most `maxSeconds`. Clients' keep-alive sockets close after the gateway's 5 s keep-alive timeout;
 * pooled upstream sockets after the upstream's keep-alive hint (the fake upstream's 65 s, less undici's
 * 1 s margin), so "idle" can take a minute after the last request.
 */
export async function waitForIdle(pid: number, maxSeconds: number): Promise<{ seconds: number; idle: boolean }> {
  const startedAt = performance.now();
  const elapsed = () => (performance.now() - startedAt) / 1000;
  while (elapsed() < maxSeconds) {
    const fds = readDescriptors(pid);
    if (!fds) throw new Error(`the gateway (pid ${pid}) has gone`);
    if (fds.established === 0 && fds.otherSockets === 0) return { seconds: elapsed(), idle: true };
    await sleep(1_000);
  }
  return { seconds: elapsed(), idle: false };
}
