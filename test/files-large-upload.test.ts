// Issue 37's "a 200 MB upload": against the default `files.max_bytes` (200 MiB), a 200 MB batch file of
// 50,000 requests streamed from a generator is taken (and reads back whole through the official SDK), and a
// 210 MB file is refused with a 413 that leaves nothing; the gateway holds neither in memory on the way.
// The uploads go over node:http with its backpressure: the `openai` SDK's first streamed upload (undici)
// was seen to hold about the whole file on the client's side, which would hide what the gateway holds
// (client and gateway share this process, whose live memory is measured).
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { startGateway, testConfig, type TestGateway } from './helpers/start-gateway.js';
import { peakGrowth, streamUpload } from './helpers/streamed-upload.js';

const lineBytes = 4_000;
const requests = 50_000;
/** A quarter of the file: an upload held whole (or half of it) on either side would pass it. */
const allowedGrowth = 50 * 1024 * 1024;

let gateway: TestGateway;
let client: OpenAI;

before(async () => {
  // The default file limit (the test helper sets a 1 MiB body limit, so a line may be up to that long).
  gateway = await startGateway({ config: configSchema.parse({ ...testConfig }) });
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0, timeout: 300_000 });
  // Once before measuring: the first upload's one-time allocations (the storage directory, code paths) are not an upload's.
  const warmUp = await streamUpload(gateway, batchLines(10), 'warm-up.jsonl', 'batch');
  assert.equal(warmUp.status, 200);
  await client.files.delete((warmUp.body as { id: string }).id);
});

after(() => gateway?.close());

/** `count` batch requests of exactly `lineBytes` bytes each (line end included), 100 lines a chunk. */
async function* batchLines(count: number): AsyncGenerator<Buffer> {
  for (let first = 0; first < count; first += 100) {
    const lines: string[] = [];
    for (let index = first; index < Math.min(count, first + 100); index++) {
      const head = JSON.stringify({ custom_id: `request-${index}`, method: 'POST', url: '/v1/embeddings', body: { model: 'builtin/embed', input: '' } });
      const padding = lineBytes - 1 - Buffer.byteLength(head);
      lines.push(`${head.replace('"input":""', `"input":"${'a'.repeat(padding)}"`)}\n`);
    }
    yield Buffer.from(lines.join(''));
  }
}

/** `bytes` of one long line, in fresh 1 MiB chunks (a reused chunk would hide a gateway that kept them). */
async function* filler(bytes: number): AsyncGenerator<Buffer> {
  for (let sent = 0; sent < bytes; sent += 1024 * 1024) yield Buffer.alloc(Math.min(1024 * 1024, bytes - sent), 'x');
}

test('a 200 MB batch file of 50,000 requests is taken, streamed, and reads back whole', { timeout: 300_000 }, async () => {
  const { result: answer, growth } = await peakGrowth(() => streamUpload(gateway, batchLines(requests), 'big.jsonl', 'batch'));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const file = answer.body as unknown as OpenAI.FileObject;
  after(() => client.files.delete(file.id).catch(() => undefined));
  assert.equal(file.bytes, lineBytes * requests);
  assert.equal(file.purpose, 'batch');
  assert.ok(growth < allowedGrowth, `live memory grew ${Math.round(growth / 1024 / 1024)} MiB during a ${file.bytes / 1e6} MB upload`);
  const download = await client.files.content(file.id);
  let bytes = 0;
  for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  assert.equal(bytes, file.bytes);
  await client.files.delete(file.id);
  console.log(`200 MB upload: live memory grew at most ${Math.round(growth / 1024 / 1024)} MiB`);
});

test('210 MB against the default limit is a 413 naming it, and nothing is kept', { timeout: 300_000 }, async () => {
  const { result: answer, growth } = await peakGrowth(() => streamUpload(gateway, filler(210_000_000), 'too-big.bin', 'user_data'));
  assert.equal(answer.status, 413, JSON.stringify(answer.body));
  const error = answer.body.error as { message: string; code: string; type: string };
  assert.match(error.message, /over the 209715200-byte limit for uploads \(files\.max_bytes\)/);
  assert.equal(error.code, 'file_too_large');
  assert.ok(growth < allowedGrowth, `live memory grew ${Math.round(growth / 1024 / 1024)} MiB`);
  await sleep(100);
  assert.deepEqual(await readdir(join(gateway.dataDir, 'files')).catch(() => []), []);
  assert.deepEqual((await client.files.list()).data, []);
});
