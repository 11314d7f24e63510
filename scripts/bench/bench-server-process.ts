// Child-process entry for the fake upstream (`upstream`) or the reference proxy (`proxy <upstream port>`).
// Each runs in its own process so that it has its own event loop and CPU, as the gateway has, instead of
// sharing one with the load generator. Started by start-bench-server.ts; talks to it over IPC.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { createReferenceProxy } from './reference-proxy.js';
import { buildUpstreamPayloads } from './upstream-payloads.js';

export type BenchServerRole = 'upstream' | 'proxy';

/** Parent → child. */
export type BenchServerCommand = { type: 'hold-streams'; on: boolean } | { type: 'release-streams' };
/** Child → parent. */
export type BenchServerReport = { type: 'listening'; port: number } | { type: 'done'; count?: number };

async function main(): Promise<void> {
  const [role, upstreamPort] = process.argv.slice(2);
  let upstream: FakeUpstream | undefined;
  let server: Server;
  if (role === 'upstream') {
    upstream = createFakeUpstream(await buildUpstreamPayloads());
    server = upstream.server;
  } else if (role === 'proxy') {
    server = createReferenceProxy(Number(upstreamPort));
  } else {
    throw new Error(`unknown role '${role}'`);
  }

  const report = (message: BenchServerReport) => process.send!(message);
  process.on('message', (command: BenchServerCommand) => {
    if (command.type === 'hold-streams') {
      upstream?.holdStreams(command.on);
      report({ type: 'done' });
    } else {
      report({ type: 'done', count: upstream?.releaseHeldStreams() ?? 0 });
    }
  });
  // The parent gone (finished, crashed or killed) means this process has nothing left to do.
  process.on('disconnect', () => process.exit(0));

  server.listen(0, '127.0.0.1', () => report({ type: 'listening', port: (server.address() as AddressInfo).port }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
