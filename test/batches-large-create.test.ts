// Creating a large OpenAI batch (issue 37): `POST /v1/batches` streams the input file into the store a piece
// at a time (server/management/batches/read-batch-input.ts), so the gateway's live memory grows by about one
// piece (1,000 lines), not by the file, and interactive requests keep being served while the lines go in.
// CI runs 10,000 lines of 4 KB (40 MB); `BATCH_LINES=50000` (OpenAI's largest batch, 200 MB) is what
// bench/README.md reports ("Creating a large batch"). The live-memory sampler collects garbage in full four
// times a second, which slows everything else many times over, so `BATCH_TIMING=1` leaves it out and
// measures instead the creation's time, the process's peak RSS and interactive latency meanwhile.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { batchTestConfig } from './helpers/message-batches.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { peakGrowth, streamUpload } from './helpers/streamed-upload.js';
import { gatewayDatabases } from './helpers/test-databases.js';

const lineBytes = 4_000;
const requests = Number(process.env.BATCH_LINES ?? 10_000);
const timing = process.env.BATCH_TIMING === '1';
/** How often live memory is sampled (a full collection each time); `BATCH_SAMPLE_MS=1000` for 50,000 lines. */
const sampleMs = Number(process.env.BATCH_SAMPLE_MS ?? 250);
/**
 * Half the CI file (40 MB): a creation that held its lines would pass it. Measured: 6–12 MiB at 5,000 lines and
 * 15 MiB at 50,000 (a piece of lines, as strings, as the insert's parameters and as the driver sends them).
 */
const allowedGrowth = 20 * 1024 * 1024;

/** `count` embeddings requests of exactly `lineBytes` bytes each (line end included), 100 lines a chunk. */
async function* batchLines(count: number): AsyncGenerator<Buffer> {
  for (let first = 0; first < count; first += 100) {
    const lines: string[] = [];
    for (let index = first; index < Math.min(count, first + 100); index++) {
      const head = JSON.stringify({ custom_id: `request-${index}`, method: 'POST', url: '/v1/embeddings', body: { model: 'builtin/embed', input: '' } });
      lines.push(`${head.replace('"input":""', `"input":"${'a'.repeat(lineBytes - 1 - Buffer.byteLength(head))}"`)}\n`);
    }
    yield Buffer.from(lines.join(''));
  }
}

/** The highest RSS of this process, sampled every 100 ms, while `work` runs (cheap: no collection). */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  try {
    return { result: await work(), growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

/** Interactive requests one after another until `done`: their latencies in ms. */
async function interactive(client: OpenAI, done: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!done()) {
    const start = performance.now();
    await client.embeddings.create({ model: 'builtin/embed', input: 'hello' });
    latencies.push(performance.now() - start);
  }
  return latencies;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN;
}

for (const [name, database] of gatewayDatabases) {
  describe(`a batch of ${requests} lines on ${name}`, () => {
    let gateway: TestGateway;
    let cleanup: () => Promise<void>;
    let client: OpenAI;
    before(async () => {
      const store = await database();
      cleanup = store.cleanup;
      gateway = await startGateway({ config: batchTestConfig(), databaseUrl: store.url });
      client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0, timeout: 600_000 });
    });
    after(async () => {
      await gateway.close();
      await cleanup();
    });

    test('is created in bounded memory, validating until its last line is stored, while interactive requests are served', { timeout: 600_000 }, async () => {
      const upload = await streamUpload(gateway, batchLines(requests), 'large.jsonl', 'batch');
      assert.equal(upload.status, 200, JSON.stringify(upload.body));
      const fileId = (upload.body as { id: string }).id;
      // Once before measuring, so that one-time allocations (code paths, the store's thread) are not the batch's.
      await interactive(client, (() => { let n = 0; return () => n++ >= 20; })());

      let creating = true;
      const idle = await interactive(client, (() => { const end = performance.now() + 1_000; return () => performance.now() > end; })());
      const during = interactive(client, () => !creating);
      const start = performance.now();
      const create = async () => {
        try {
          return await client.batches.create({ input_file_id: fileId, endpoint: '/v1/embeddings', completion_window: '24h' });
        } finally {
          creating = false;
        }
      };
      const { result: batch, growth } = timing ? await peakRss(create) : await peakGrowth(create, sampleMs);
      const seconds = (performance.now() - start) / 1000;
      const latencies = await during;
      assert.equal(batch.status, 'in_progress');
      assert.equal(batch.request_counts?.total, requests);
      if (!timing) assert.ok(growth < allowedGrowth, `live memory grew ${Math.round(growth / 1024 / 1024)} MiB creating a batch from a ${(requests * lineBytes) / 1e6} MB file`);
      console.log(
        `${name}: ${requests} lines created in ${seconds.toFixed(1)} s (${Math.round(requests / seconds)} lines/s); ${timing ? 'RSS' : 'live memory'} grew at most ${(growth / 1024 / 1024).toFixed(1)} MiB; ` +
          `interactive embeddings idle p50 ${percentile(idle, 0.5).toFixed(1)} ms, during creation (${latencies.length}) p50 ${percentile(latencies, 0.5).toFixed(1)} / p99 ${percentile(latencies, 0.99).toFixed(1)} / max ${Math.max(...latencies).toFixed(1)} ms`,
      );
      await client.batches.cancel(batch.id);
    });
  });
}
