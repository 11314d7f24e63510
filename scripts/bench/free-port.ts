import { createServer } from 'node:net';

/**
 * A port that was free a moment ago, for a child that must be told its port up front (the gateway logs
 * its port only at `info`, and the bench runs it at `warn`).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
