// SIGTERM while streams are still open when the drain timeout ends: each stream is closed with its
// protocol's in-stream error event (saying the gateway is shutting down) and ends cleanly, a request not
// streaming yet gets the 503 in its protocol's shape, every one of them has its usage row once the process
// is gone, and the process exits 0. On SQLite and on PostgreSQL.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase } from '../server/store/database.js';
import { parseNamedSse } from './helpers/named-sse.js';
import { spawnGateway } from './helpers/spawn-gateway.js';
import { postgresSchemaUrl } from './helpers/test-databases.js';

const adminKey = 'admin-sigterm-open-streams';
const model = 'slow-echo';
/**
 * The built-in model waits this long before each word: a stream's headers come with its first word, and the
 * next is 3 s away, far beyond the signal and the 300 ms drain, so every stream is still open when it ends.
 */
const config = `providers:\n  - { id: slow, type: builtin, chunk_delay_ms: 3000 }\nmodels:\n  - { id: ${model}, provider: slow, capabilities: [chat, streaming] }\n`;
const prompt = 'one two three four five six seven eight nine ten';

interface StreamCase {
  name: string;
  path: string;
  body: unknown;
  /** Asserts that the body the client read ends with the protocol's in-stream error about the shutdown. */
  endsWithShutdownError(text: string): void;
}

const shuttingDown = /shutting down/;

const cases: StreamCase[] = [
  {
    name: 'chat completions',
    path: '/v1/chat/completions',
    body: { model, stream: true, messages: [{ role: 'user', content: prompt }] },
    endsWithShutdownError(text) {
      const frames = text.trimEnd().split('\n\n');
      const last = JSON.parse(frames.at(-1)!.replace(/^data: /, '')) as { error?: { message: string; type: string } };
      assert.ok(last.error, `the last frame is an error: ${frames.at(-1)}`);
      assert.match(last.error.message, shuttingDown);
    },
  },
  {
    name: 'anthropic messages',
    path: '/v1/messages',
    body: { model, stream: true, max_tokens: 100, messages: [{ role: 'user', content: prompt }] },
    endsWithShutdownError(text) {
      const last = parseNamedSse<{ type: string; error: { type: string; message: string } }>(text).at(-1)!;
      assert.equal(last.event, 'error');
      assert.equal(last.data.type, 'error');
      assert.equal(last.data.error.type, 'overloaded_error');
      assert.match(last.data.error.message, shuttingDown);
    },
  },
  {
    name: 'responses',
    path: '/v1/responses',
    body: { model, stream: true, input: prompt },
    endsWithShutdownError(text) {
      const frames = parseNamedSse<{ message?: string; response?: { status: string; error: { message: string } } }>(text);
      const [error, failed] = frames.slice(-2);
      assert.equal(error!.event, 'error');
      assert.match(error!.data.message!, shuttingDown);
      assert.equal(failed!.event, 'response.failed');
      assert.equal(failed!.data.response!.status, 'failed');
      assert.match(failed!.data.response!.error.message, shuttingDown);
    },
  },
  {
    name: 'gemini (SSE)',
    path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
    body: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
    endsWithShutdownError(text) {
      const frames = text.trimEnd().split(/\r?\n\r?\n/);
      const last = JSON.parse(frames.at(-1)!.replace(/^data: /, '')) as { error?: { status: string; message: string } };
      assert.equal(last.error?.status, 'UNAVAILABLE', `the last frame is an error: ${frames.at(-1)}`);
      assert.match(last.error.message, shuttingDown);
    },
  },
  {
    name: 'gemini (JSON array)',
    path: `/v1beta/models/${model}:streamGenerateContent`,
    body: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
    endsWithShutdownError(text) {
      const elements = JSON.parse(text) as Array<{ error?: { status: string; message: string } }>;
      const last = elements.at(-1)!;
      assert.equal(last.error?.status, 'UNAVAILABLE', `the last element is an error: ${JSON.stringify(last)}`);
      assert.match(last.error.message, shuttingDown);
    },
  },
];

/** An open stream: its request ID, and the whole body once the server ends it (rejects if the connection breaks). */
interface OpenStream {
  streamCase: StreamCase;
  requestId: string;
  body: Promise<string>;
}

async function openStream(origin: string, key: string, streamCase: StreamCase): Promise<OpenStream> {
  const response = await fetch(`${origin}${streamCase.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(streamCase.body),
  });
  assert.equal(response.status, 200, `${streamCase.name}: ${response.status}`);
  return { streamCase, requestId: response.headers.get('x-request-id')!, body: response.text() };
}

async function runCase(store: { env: Record<string, string>; databaseUrl?: string }): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'sigterm-streams-'));
  await writeFile(join(dir, 'gateway.yaml'), config);
  const gateway = await spawnGateway({ ...store.env, GATEWAY_CONFIG: join(dir, 'gateway.yaml'), GATEWAY_ADMIN_KEY: adminKey, GATEWAY_DRAIN_TIMEOUT_MS: '300' });
  const created = await fetch(`${gateway.origin}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'streams' }),
  });
  assert.equal(created.status, 201);
  const { key } = (await created.json()) as { key: string };

  // Two whole (non-stream) answers, in flight from before the streams start until the drain ends.
  const post = (path: string, body: unknown) =>
    fetch(`${gateway.origin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const wholeChat = post('/v1/chat/completions', { model, messages: [{ role: 'user', content: prompt }] });
  const wholeMessage = post('/v1/messages', { model, max_tokens: 100, messages: [{ role: 'user', content: prompt }] });
  // 50 streams, 10 of each protocol; all have their status and headers before the signal.
  const streams = await Promise.all(Array.from({ length: 50 }, (_, i) => openStream(gateway.origin, key, cases[i % cases.length]!)));
  const signalledAt = Date.now();
  gateway.child.kill('SIGTERM');

  const bodies = await Promise.allSettled(streams.map((stream) => stream.body));
  bodies.forEach((body, i) => {
    const { streamCase, requestId } = streams[i]!;
    assert.equal(body.status, 'fulfilled', `${streamCase.name} ${requestId} ended cleanly: ${body.status === 'rejected' ? String(body.reason) : ''}`);
    streamCase.endsWithShutdownError((body as PromiseFulfilledResult<string>).value);
  });
  // Not streaming yet: the shutdown is the answer, with the protocol's status and error body.
  const chat = await wholeChat;
  assert.equal(chat.status, 503);
  assert.match(((await chat.json()) as { error: { message: string } }).error.message, shuttingDown);
  const message = await wholeMessage;
  assert.equal(message.status, 529);
  assert.equal(((await message.json()) as { error: { type: string } }).error.type, 'overloaded_error');
  assert.equal(await gateway.exited, 0, gateway.output());
  assert.ok(Date.now() - signalledAt < 2_500, 'the shutdown did not wait for the streams to finish on their own');

  const db = await openDatabase({ dataDir: gateway.dataDir, databaseUrl: store.databaseUrl });
  try {
    const rows = await db.selectFrom('usage_records').select(['request_id', 'status']).execute();
    const recorded = new Set(rows.map((row) => row.request_id));
    const missing = streams.filter((stream) => !recorded.has(stream.requestId)).map((stream) => `${stream.streamCase.name} ${stream.requestId}`);
    assert.deepEqual(missing, [], 'every stream has its usage row after the exit');
    assert.equal(rows.length, 52, 'and the two whole answers have theirs');
  } finally {
    await db.destroy();
  }
}

describe('SIGTERM with streams open at the drain timeout', () => {
  test('SQLite: each stream ends with its protocol\'s error event, exit 0, every row written', async () => {
    await runCase({ env: {} });
  });

  test('PostgreSQL: each stream ends with its protocol\'s error event, exit 0, every row written', async () => {
    const schema = await postgresSchemaUrl();
    try {
      await runCase({ env: { GATEWAY_DATABASE_URL: schema.url }, databaseUrl: schema.url });
    } finally {
      await schema.cleanup();
    }
  });
});
