// collectResponse against a real HTTP server on 127.0.0.1: whole bodies, and aborts at each stage.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Agent } from 'undici';
import { collectResponse } from './collect-response.js';

type Route = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Route>();
const arrived: string[] = [];
let server: Server;
let origin: string;
let agent: Agent;

before(async () => {
  server = createServer((req, res) => {
    arrived.push(req.url!);
    req.resume();
    req.on('end', () => routes.get(req.url!)!(req, res));
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // One connection, so a second request waits for the first one's.
  agent = new Agent({ connections: 1 });
});

after(async () => {
  await agent.close();
  server.closeAllConnections();
  server.close();
});

const post = (path: string, signal = new AbortController().signal) =>
  collectResponse(agent, { origin, path, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, signal);

test('resolves with the status, headers and the body written in several pieces', { timeout: 5_000 }, async () => {
  routes.set('/pieces', (_req, res) => {
    res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'abc' });
    res.write('{"a":');
    setTimeout(() => res.end('"ü"}'), 10);
  });
  const reply = await post('/pieces');
  assert.equal(reply.status, 201);
  assert.equal(reply.headers['x-request-id'], 'abc');
  assert.deepEqual(JSON.parse(reply.body.toString('utf8')), { a: 'ü' });
});

test('a non-2xx answer is collected like any other (its body is the error)', { timeout: 5_000 }, async () => {
  routes.set('/refused', (_req, res) => res.writeHead(429, { 'retry-after': '3' }).end('{"error":{"message":"slow down"}}'));
  const reply = await post('/refused');
  assert.equal(reply.status, 429);
  assert.equal(reply.headers['retry-after'], '3');
  assert.match(reply.body.toString(), /slow down/);
});

test('an abort while the upstream thinks rejects with its reason at once and closes the connection', { timeout: 5_000 }, async () => {
  let closed: Promise<unknown> | undefined;
  routes.set('/slow', (req) => (closed = once(req.socket, 'close')));
  const controller = new AbortController();
  const pending = post('/slow', controller.signal);
  while (!closed) await new Promise((resolve) => setTimeout(resolve, 5));
  const reason = new Error('client disconnected');
  controller.abort(reason);
  await assert.rejects(pending, (error) => error === reason);
  await closed;
});

test('an abort while waiting for a free connection rejects at once, and the request is never sent', { timeout: 5_000 }, async () => {
  let finishFirst: (() => void) | undefined;
  routes.set('/busy', (_req, res) => (finishFirst = () => res.end('{}')));
  const first = post('/busy');
  while (!finishFirst) await new Promise((resolve) => setTimeout(resolve, 5));
  const controller = new AbortController();
  const queued = post('/queued', controller.signal);
  controller.abort(new Error('gone'));
  await assert.rejects(queued, /gone/);
  finishFirst();
  assert.equal((await first).status, 200);
  routes.set('/after', (_req, res) => res.end('{}'));
  await post('/after');
  assert.ok(!arrived.includes('/queued'), `requests that reached the server: ${arrived.join(', ')}`);
});

test('an already aborted signal rejects without sending anything', { timeout: 5_000 }, async () => {
  const controller = new AbortController();
  controller.abort(new Error('too late'));
  await assert.rejects(post('/never', controller.signal), /too late/);
  assert.ok(!arrived.includes('/never'));
});

test('a refused connection rejects with undici’s error', { timeout: 5_000 }, async () => {
  const closedServer = createServer().listen(0, '127.0.0.1');
  await once(closedServer, 'listening');
  const port = (closedServer.address() as AddressInfo).port;
  closedServer.close();
  const signal = new AbortController().signal;
  await assert.rejects(
    collectResponse(agent, { origin: `http://127.0.0.1:${port}`, path: '/', method: 'POST', body: '{}' }, signal),
    (error: Error & { code?: string }) => error.code === 'ECONNREFUSED',
  );
});
