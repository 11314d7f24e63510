import { once } from 'node:events';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { postgresUrl } from './test-databases.js';

/**
 * How the database looks to its clients while the proxy is cut:
 * - `reset`: every connection is closed and new ones are closed at once, as when the server restarts;
 * - `blackhole`: nothing answers, neither the open connections nor new ones (accepted, never served), as
 *   when the server or the network vanished without closing anything.
 */
export type CutMode = 'reset' | 'blackhole';

export interface PostgresProxy {
  /** `url` with its host and port replaced by the proxy's. */
  urlThrough(url: string): string;
  cut(mode: CutMode): void;
  /** Serves again; connections left frozen by a blackhole are closed, as the server would have by then. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of the test PostgreSQL, which a test can cut off to play a database
 * outage without touching the shared server.
 */
export async function startPostgresProxy(target = new URL(postgresUrl)): Promise<PostgresProxy> {
  const sockets = new Set<Socket>();
  let mode: CutMode | undefined;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (mode === 'reset') return void client.destroy();
    if (mode === 'blackhole') return void client.pause();
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    urlThrough(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    cut(cutMode) {
      mode = cutMode;
      for (const socket of sockets) {
        if (cutMode === 'reset') {
          socket.destroy();
        } else {
          // Frozen both ways: what is sent stays unread, nothing comes back.
          socket.unpipe();
          socket.pause();
        }
      }
    },
    restore() {
      for (const socket of sockets) if (mode === 'blackhole') socket.destroy();
      mode = undefined;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
