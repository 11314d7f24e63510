// SIGTERM with Responses WebSockets open (issue 36): the production bundle, as `npm start` runs it. A socket
// in the middle of a turn gets the rest of that turn, then a close with 1001 (going away); an idle socket is
// closed with 1001 at once; and the process exits 0 once both are gone. A client that ignores the close is
// cut at the drain timeout.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { WebSocket } from 'ws';
import { runKeysCli, spawnGateway } from './helpers/spawn-gateway.js';

test('SIGTERM lets the turn running finish, then closes every socket with 1001 and exits 0', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-ws-drain-'));
  const configPath = join(dir, 'gateway.yaml');
  await writeFile(configPath, 'providers:\n  - { id: slow, type: builtin, chunk_delay_ms: 40 }\nmodels:\n  - { id: slow-echo, provider: slow, capabilities: [chat, streaming] }\n');
  const gateway = await spawnGateway({ GATEWAY_CONFIG: configPath });
  try {
    const { stdout } = await runKeysCli(gateway.dataDir, ['create', '--name', 'ws-drain', '--json']);
    const { key } = JSON.parse(stdout) as { key: string };
    const open = async () => {
      const ws = new WebSocket(`${gateway.origin.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${key}` } });
      await once(ws, 'open');
      const frames: Array<{ type: string; response?: { output: Array<{ content: Array<{ text: string }> }> } }> = [];
      ws.on('message', (data) => frames.push(JSON.parse(String(data)) as (typeof frames)[number]));
      const closed = once(ws, 'close').then(([code]) => code as number);
      return { ws, frames, closed };
    };
    const busy = await open();
    const idle = await open();
    const words = Array.from({ length: 20 }, (_, index) => `word${index}`).join(' ');
    busy.ws.send(JSON.stringify({ type: 'response.create', model: 'slow-echo', input: words }));
    while (!busy.frames.some((frame) => frame.type === 'response.output_text.delta')) await new Promise((resolve) => setTimeout(resolve, 20));

    gateway.child.kill('SIGTERM');
    assert.equal(await idle.closed, 1001, 'an idle socket goes away at once');
    assert.equal(await busy.closed, 1001);
    const last = busy.frames.at(-1)!;
    assert.equal(last.type, 'response.completed', 'the turn running was finished before the close');
    assert.match(last.response!.output[0]!.content[0]!.text, /word19$/);
    assert.equal(await gateway.exited, 0);
  } finally {
    gateway.child.kill('SIGKILL');
  }
});

/**
 * A client that ignores the close: a raw TCP connection that makes the handshake, then neither reads
 * frames nor answers the 1001. Node's closeAllConnections leaves upgraded sockets alone, and `ws` waits 30 s
 * for the client's close frame, so without more the process would hang on it past the drain timeout.
 */
async function openIgnoringClient(origin: string, key: string): Promise<{ ended: Promise<Buffer> }> {
  const { port } = new URL(origin);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    [
      'GET /v1/responses HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Sec-WebSocket-Version: 13',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      `Authorization: Bearer ${key}`,
      '',
      '',
    ].join('\r\n'),
  );
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', () => undefined);
  while (!Buffer.concat(received).toString('latin1').includes('\r\n\r\n')) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.match(Buffer.concat(received).toString('latin1'), /^HTTP\/1\.1 101 /);
  return { ended: once(socket, 'close').then(() => Buffer.concat(received)) };
}

test('at the drain timeout a socket whose client ignores the close is terminated, and the process exits', async () => {
  const drainTimeoutMs = 1_000;
  const gateway = await spawnGateway({ GATEWAY_DRAIN_TIMEOUT_MS: String(drainTimeoutMs) });
  try {
    const { stdout } = await runKeysCli(gateway.dataDir, ['create', '--name', 'ws-ignore', '--json']);
    const { key } = JSON.parse(stdout) as { key: string };
    const client = await openIgnoringClient(gateway.origin, key);
    const started = Date.now();
    gateway.child.kill('SIGTERM');
    const received = await client.ended;
    const elapsed = Date.now() - started;
    // The 1001 close frame went out when draining began (0x88: FIN + close; its payload begins with the code).
    const close = received.indexOf(Buffer.from([0x88]), received.indexOf('\r\n\r\n') + 4);
    assert.ok(close !== -1, 'a close frame was sent');
    assert.equal(received.readUInt16BE(close + 2), 1001);
    assert.equal(await gateway.exited, 0);
    assert.ok(elapsed >= drainTimeoutMs - 100, `not before the drain timeout (${elapsed} ms)`);
    assert.ok(Date.now() - started < drainTimeoutMs + 6_000, `cut at the drain timeout, not after ws's 30 s close wait (${Date.now() - started} ms)`);
  } finally {
    gateway.child.kill('SIGKILL');
  }
});
