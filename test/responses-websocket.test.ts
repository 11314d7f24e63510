// The Responses API over WebSocket (OpenAI's WebSocket mode, issue 36): real sockets from the `openai` SDK's
// ResponsesWS and the `ws` client against a real gateway, on the built-in model and on a fake Anthropic
// upstream. Every frame the gateway sends is validated against the server messages of the AsyncAPI document
// (openapi/asyncapi/responses-websocket.yaml), whose payloads are the Responses schemas of the contract.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { WebSocket } from 'ws';
import { parse } from 'yaml';
import { configSchema } from '../server/config/config-schema.js';
import { adminApi } from './helpers/admin-api.js';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import { parseResponsesSse } from './helpers/responses-stream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { startUpstreamGateway } from './helpers/upstream-gateway.js';

type Frame = { type: string; [field: string]: unknown };

const asyncApi = parse(readFileSync(new URL('../openapi/asyncapi/responses-websocket.yaml', import.meta.url), 'utf8')) as {
  channels: { responses: { messages: Record<string, { $ref: string }> } };
  components: { messages: Record<string, { payload: { $ref: string } }>; schemas: Record<string, object> };
};
const ajv = new Ajv({ strict: false, allErrors: true });
for (const [name, schema] of Object.entries(asyncApi.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);

/** The server messages of the channel: what the reply of `createResponse` may carry. */
const serverPayloads = ['streamEvent', 'errorEvent'].map((name) => {
  assert.ok(asyncApi.channels.responses.messages[name], `the channel lists ${name}`);
  return asyncApi.components.messages[name]!.payload.$ref;
});

/** Throws unless the frame matches one of the channel's server messages (a Responses schema of the contract, or the socket's error event). */
function assertServerFrame(frame: unknown): void {
  const failures: string[] = [];
  for (const ref of serverPayloads) {
    try {
      const contract = /^\.\.\/components\/\w+\.yaml#\/schemas\/(\w+)$/.exec(ref);
      if (contract) {
        assertMatchesSchema(contract[1]!, frame);
        if (typeof frame === 'object' && frame !== null && 'response' in frame) assertMatchesSchema('ResponsesResponse', (frame as { response: unknown }).response);
      } else {
        const validate = ajv.getSchema(ref)!;
        if (!validate(frame)) throw new Error(ajv.errorsText(validate.errors));
      }
      return;
    } catch (error) {
      failures.push(`${ref}: ${(error as Error).message.slice(0, 300)}`);
    }
  }
  assert.fail(`frame matches no server message of the AsyncAPI document:\n${failures.join('\n')}\n${JSON.stringify(frame)}`);
}

/** Every client socket a test opened: a failed test leaves none open, or closing its gateway would wait for it. */
const openSockets = new Set<WebSocket>();
function closeSockets(): void {
  for (const ws of openSockets) ws.terminate();
  openSockets.clear();
}
afterEach(closeSockets);
/** Closes a gateway once the test's sockets are gone. */
const closing = (target: { close(): Promise<void> }) => () => {
  closeSockets();
  return target.close();
};

/** A `ws` client on the gateway's socket, collecting (and validating) every frame it receives. */
class Socket {
  readonly frames: Frame[] = [];
  private waiters: Array<() => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    openSockets.add(ws);
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      assertServerFrame(frame);
      this.frames.push(frame);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = once(ws, 'close').then(([code, reason]) => ({ code: code as number, reason: String(reason) }));
  }

  static async open(origin: string, key: string, path = '/v1/responses'): Promise<Socket> {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}${path}`, {
      headers: { authorization: `Bearer ${key}`, 'openai-beta': 'responses_websockets=2026-02-06' },
      perMessageDeflate: true,
    });
    await once(ws, 'open');
    return new Socket(ws);
  }

  send(frame: object): void {
    this.ws.send(JSON.stringify(frame));
  }

  /** The frames of the next turn, up to and with its terminal event or error frame. */
  async turn(): Promise<Frame[]> {
    const start = this.frames.length;
    for (;;) {
      const end = this.frames.findIndex((frame, index) => index >= start && ['response.completed', 'response.incomplete', 'response.failed', 'error'].includes(frame.type));
      if (end !== -1) {
        const turn = this.frames.slice(start, end + 1);
        this.frames.splice(start, end + 1 - start);
        return turn;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

/** The handshake's answer when it is refused: its status and body, and no socket. */
async function refusedHandshake(origin: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}${path}`, { headers });
  ws.on('error', () => undefined); // the refusal itself: the connection ends without a socket
  const [, response] = (await once(ws, 'unexpected-response')) as [unknown, import('node:http').IncomingMessage];
  let body = '';
  for await (const chunk of response) body += String(chunk);
  return { status: response.statusCode!, body };
}

const text = (frames: Frame[]) =>
  ((frames.at(-1) as unknown as { response: { output: Array<{ content?: Array<{ text?: string }> }> } }).response.output.flatMap((item) => item.content ?? []).map((part) => part.text)).join('');

describe('on the built-in model', () => {
  let gateway: TestGateway;

  test('the openai SDK\'s ResponsesWS gets exactly the events of the SSE form, turn after turn, and continues an unstored response on the socket', async (t) => {
    gateway = await startGateway();
    t.after(closing(gateway));
    const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1` });
    const socket = new ResponsesWS(client);
    t.after(() => socket.socket.close());
    const received: Frame[] = [];
    socket.on('error', (error) => assert.fail(error.message));
    socket.on('event', (event) => {
      assertServerFrame(event);
      received.push(event as unknown as Frame);
    });
    const completed = () => new Promise<void>((resolve) => socket.on('event', (event) => event.type === 'response.completed' && resolve()));

    let done = completed();
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'one two three', store: false });
    await done;
    const first = received.splice(0);
    const http = await fetch(`${gateway.origin}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'builtin/echo', input: 'one two three', store: false, stream: true }),
    });
    const sse = parseResponsesSse(await http.text()).map(({ data }) => data);
    assert.deepEqual(first.map((frame) => frame.type), sse.map((event) => event.type), 'the same events as the SSE form');
    assert.deepEqual(first.map((frame) => frame.sequence_number), sse.map((event) => event.sequence_number));
    assert.equal(text(first), 'You said: one two three');

    // store: false — nothing stored; the socket remembers the response, as OpenAI's WebSocket mode does.
    done = completed();
    const previous = (first.at(-1) as unknown as { response: { id: string } }).response.id;
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'four five', previous_response_id: previous, store: false });
    await done;
    const second = received.splice(0);
    assert.equal(text(second), 'You said: four five');
    const stored = await fetch(`${gateway.origin}/v1/responses/${previous}`, { headers: { authorization: `Bearer ${gateway.apiKey}` } });
    assert.equal(stored.status, 404, 'store: false stores nothing');
    socket.close();
    // Each turn was one request: the log has its line, and one for the socket (101, written when the server
    // sees the close — waited for, not slept on, as a loaded machine may take longer than any fixed pause).
    for (const deadline = Date.now() + 5000; !gateway.logs.some((line) => line.includes('"status":101')) && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const turns = gateway.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request' && line.method === 'POST' && line.path === '/v1/responses');
    assert.equal(turns.length, 3, 'two socket turns and the HTTP request');
    assert.ok(gateway.logs.some((line) => line.includes('"status":101')));
    assert.equal(gateway.logs.filter((line) => line.includes('"msg":"websocket turn"')).length, 2);
  });

  test('frames it cannot run are error frames in OpenAI\'s shape, and the socket stays open', async (t) => {
    gateway = await startGateway();
    t.after(closing(gateway));
    const socket = await Socket.open(gateway.origin, gateway.apiKey);
    const cases: Array<[object | string, number, string | null]> = [
      [{ type: 'response.create', model: 'builtin/echo', input: 'x', stream: false }, 400, 'stream'],
      [{ type: 'response.create', model: 'builtin/echo', input: 'x', background: true }, 400, 'background'],
      [{ type: 'response.cancel' }, 400, 'type'],
      ['not json', 400, null],
      [{ type: 'response.create', model: 'no-such-model', input: 'x' }, 404, 'model'],
    ];
    for (const [frame, status, param] of cases) {
      if (typeof frame === 'string') socket.ws.send(frame);
      else socket.send(frame);
      const [error] = await socket.turn();
      assert.equal(error!.type, 'error');
      assert.equal(error!.status, status, JSON.stringify(error));
      if (param) assert.equal((error!.error as { param: string }).param, param, JSON.stringify(error));
    }
    // stream: true is taken (openai/codex sends it in every frame).
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'still here', stream: true });
    assert.equal(text(await socket.turn()), 'You said: still here');
    socket.ws.close();
  });

  test('an unknown previous_response_id is previous_response_not_found, as OpenAI\'s WebSocket mode answers it; over HTTP it stays a 404', async (t) => {
    gateway = await startGateway();
    t.after(closing(gateway));
    const socket = await Socket.open(gateway.origin, gateway.apiKey);
    const notFound = (id: string) => ({
      type: 'error',
      status: 400,
      error: { type: 'invalid_request_error', code: 'previous_response_not_found', message: `Previous response with id '${id}' not found.`, param: 'previous_response_id' },
    });
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'x', previous_response_id: 'resp_unknown' });
    assert.deepEqual(await socket.turn(), [notFound('resp_unknown')]);
    // The socket keeps only its latest unstored response: an older one is not found either.
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'first', store: false });
    const older = ((await socket.turn()).at(-1)!.response as { id: string }).id;
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'second', store: false, previous_response_id: older });
    assert.equal(text(await socket.turn()), 'You said: second');
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'third', store: false, previous_response_id: older });
    assert.deepEqual(await socket.turn(), [notFound(older)]);
    socket.ws.close();
    const http = await fetch(`${gateway.origin}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'builtin/echo', input: 'x', previous_response_id: 'resp_unknown' }),
    });
    assert.equal(http.status, 404);
    assert.deepEqual(((await http.json()) as { error: { code: string; param: string } }).error.code, 'not_found');
  });

  test('a warm-up (generate: false) answers an empty completed response that the next turn continues from', async (t) => {
    gateway = await startGateway();
    t.after(closing(gateway));
    const socket = await Socket.open(gateway.origin, gateway.apiKey);
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'warm words', store: false, generate: false });
    const warm = await socket.turn();
    assert.deepEqual(warm.map((frame) => frame.type), ['response.created', 'response.completed']);
    const id = (warm[1]!.response as { id: string; output: unknown[] }).id;
    assert.deepEqual((warm[1]!.response as { output: unknown[] }).output, []);
    socket.send({ type: 'response.create', model: 'builtin/echo', input: [{ role: 'user', content: 'hot words' }], previous_response_id: id, store: false });
    assert.equal(text(await socket.turn()), 'You said: hot words');
    socket.ws.close();
  });

  test('a warm-up is checked as the same request over HTTP: an unknown model is a 404 frame, a model the key may not use a 403, and it is metered', async (t) => {
    gateway = await startGateway();
    t.after(closing(gateway));
    const admin = adminApi(gateway);
    const narrow = await admin.createKey('acct_default', { name: 'echo only', permissions: { models: ['builtin/echo'] } });
    const socket = await Socket.open(gateway.origin, narrow.key);
    const cases: Array<[object, number, string | null]> = [
      [{ model: 'no-such-model' }, 404, 'model'],
      [{ model: 'builtin/image' }, 403, 'model'],
      [{ model: 'builtin/echo', previous_response_id: 'resp_unknown' }, 400, 'previous_response_id'],
    ];
    for (const [fields, status, param] of cases) {
      socket.send({ type: 'response.create', input: 'warm', store: false, generate: false, ...fields });
      const [error] = await socket.turn();
      assert.equal(error!.type, 'error', JSON.stringify(error));
      assert.equal(error!.status, status, JSON.stringify(error));
      assert.equal((error!.error as { param: string | null }).param, param, JSON.stringify(error));
    }
    // The same refusals as over HTTP.
    for (const [fields, status] of cases.slice(0, 2)) {
      const http = await fetch(`${gateway.origin}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${narrow.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'warm', ...fields }),
      });
      assert.equal(http.status, status);
    }
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'warm', store: false, generate: false });
    assert.deepEqual((await socket.turn()).map((frame) => frame.type), ['response.created', 'response.completed']);
    socket.ws.close();
    // Each warm-up was a request of the key's: four over the socket and two over HTTP, each with its ledger
    // row, at the HTTP status (the unknown previous response's 404); the admitted warm-up's has no tokens.
    const deadline = Date.now() + 10_000;
    let rows: Array<{ key_id: string; status: number; input_tokens: number; output_tokens: number; model: string | null }> = [];
    while (rows.length < 6 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const page = await fetch(`${gateway.origin}/admin/v1/usage/records?limit=100`, { headers: { authorization: `Bearer ${gateway.adminKey}` } });
      rows = ((await page.json()) as { data: typeof rows }).data.filter((row) => row.key_id === narrow.id);
    }
    assert.deepEqual(rows.map((row) => row.status).sort(), [200, 403, 403, 404, 404, 404]);
    const warm = rows.find((row) => row.status === 200)!;
    assert.deepEqual([warm.model, warm.input_tokens, warm.output_tokens], ['builtin/echo', 0, 0]);
  });

  test('the handshake is authenticated and matched as the HTTP form is: a bad key is a plain 401, never a socket', async (t) => {
    gateway = await startGateway();
    t.after(closing(gateway));
    const upgrade = { 'openai-beta': 'responses_websockets=2026-02-06' };
    for (const headers of [upgrade, { ...upgrade, authorization: 'Bearer sk-gw-wrong' }]) {
      const refused = await refusedHandshake(gateway.origin, '/v1/responses', headers);
      assert.equal(refused.status, 401);
      const body = JSON.parse(refused.body) as unknown;
      assertMatchesSchema('OpenAIError', body);
    }
    const wrongCase = await refusedHandshake(gateway.origin, '/V1/responses', { authorization: `Bearer ${gateway.apiKey}` });
    assert.equal(wrongCase.status, 404, 'literal segments are case-sensitive, as over HTTP');
    const other = await refusedHandshake(gateway.origin, '/v1/chat/completions', { authorization: `Bearer ${gateway.apiKey}` });
    assert.equal(other.status, 404);
    // Doubled and trailing slashes reach the same operation, as over HTTP.
    const socket = await Socket.open(gateway.origin, gateway.apiKey, '//v1//responses/');
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'slashes' });
    assert.equal(text(await socket.turn()), 'You said: slashes');
    socket.ws.close();
  });

  test('a key revoked mid-socket has its next turn refused with 401', async (t) => {
    gateway = await startGateway();
    t.after(closing(gateway));
    const admin = adminApi(gateway);
    const account = await admin.createAccount({ name: 'socket owner' });
    const created = await admin.createKey(account.id, { name: 'socket key' });
    const socket = await Socket.open(gateway.origin, created.key);
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'before' });
    assert.equal(text(await socket.turn()), 'You said: before');
    await admin.revokeKey(created.id);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // valid keys are cached for at most a second
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'after' });
    const [refused] = await socket.turn();
    assert.equal(refused!.type, 'error');
    assert.equal(refused!.status, 401);
    socket.ws.close();
  });

  test('the connection\'s age is capped: websocket_connection_limit_reached, then a close', async (t) => {
    const config = configSchema.parse({ providers: [{ id: 'builtin', type: 'builtin' }], models: [{ id: 'builtin/echo', provider: 'builtin' }], responses: { websocket_max_connection_minutes: 1.5 / 60 } });
    gateway = await startGateway({ config });
    t.after(closing(gateway));
    const socket = await Socket.open(gateway.origin, gateway.apiKey);
    socket.send({ type: 'response.create', model: 'builtin/echo', input: 'in time' });
    assert.equal(text(await socket.turn()), 'You said: in time');
    const [limit] = await socket.turn();
    assert.equal(limit!.type, 'error');
    assert.equal((limit!.error as { code: string }).code, 'websocket_connection_limit_reached');
    assert.equal((await socket.closed).code, 1000);
  });
});

describe('on an Anthropic upstream', () => {
  const anthropicText = "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";

  test('turns are translated, and a stored response is continued from on another socket', async (t) => {
    const setup = await startUpstreamGateway('anthropic');
    t.after(closing(setup));
    setup.upstream.enqueue(
      { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
      { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' },
    );
    const first = await Socket.open(setup.gateway.origin, setup.gateway.apiKey);
    first.send({ type: 'response.create', model: 'test-model', input: 'How are you?' });
    const turn = await first.turn();
    assert.equal(text(turn), anthropicText);
    first.ws.close();
    const id = (turn.at(-1)!.response as { id: string }).id;

    const second = await Socket.open(setup.gateway.origin, setup.gateway.apiKey);
    second.send({ type: 'response.create', model: 'test-model', input: 'And now?', previous_response_id: id });
    assert.equal(text(await second.turn()), anthropicText);
    second.ws.close();
    const sent = setup.upstream.requests[1]!.json as { messages: Array<{ role: string; content: unknown }> };
    assert.deepEqual(
      sent.messages.map((message) => message.role),
      ['user', 'assistant', 'user'],
      'the stored conversation was rebuilt for the upstream',
    );
    assert.match(JSON.stringify(sent.messages[1]), /doing well/);
  });

  test('a client that leaves mid-turn has the upstream call cancelled, as an HTTP client leaving does', async (t) => {
    const setup = await startUpstreamGateway('anthropic', { config: { ledger: { abandoned_streams: { drain_seconds: 0 } } } });
    t.after(closing(setup));
    setup.upstream.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages', chunkDelayMs: 200 });
    const socket = await Socket.open(setup.gateway.origin, setup.gateway.apiKey);
    socket.send({ type: 'response.create', model: 'test-model', input: 'Slowly' });
    while (!socket.frames.some((frame) => frame.type === 'response.output_text.delta')) await new Promise((resolve) => setTimeout(resolve, 20));
    socket.ws.terminate();
    const deadline = Date.now() + 5_000;
    while (setup.upstream.connectionClosures.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(setup.upstream.connectionClosures.length, 1, 'the upstream connection was closed before its answer ended');
  });
});
