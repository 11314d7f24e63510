// Image URLs on many instances: two gateways on one PostgreSQL schema (each with its own data directory, as
// separate machines behind a load balancer would have), where `images.storage: auto` keeps the images in the
// store. An image generated through one with the official `openai` SDK (`response_format: url`, the built-in
// offline model) downloads byte-exact, with its content type, from the other; still without a key; and once
// its short TTL has passed it is a 404 on both and the sweep leaves no row of it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import pg from 'pg';
import sharp from 'sharp';
import { configSchema } from '../server/config/config-schema.js';
import { imageDirectories, listFiles, rawGet } from './helpers/images.js';
import { startSharedStoreGateways, type SharedStoreGateways } from './helpers/shared-store-gateways.js';
import { testConfig, type TestGateway } from './helpers/start-gateway.js';

/** Long enough for a generation and its downloads on a busy machine, short enough to wait out. */
const ttlSeconds = 5;
let gateways: SharedStoreGateways;
let first: TestGateway;
let second: TestGateway;
let throughFirst: OpenAI;

before(async () => {
  const config = configSchema.parse({ ...testConfig, images: { url_ttl_seconds: ttlSeconds, sweep_interval_seconds: 1 } });
  gateways = await startSharedStoreGateways({ config });
  ({ first, second } = gateways);
  throughFirst = new OpenAI({ apiKey: first.apiKey, baseURL: `${first.origin}/v1`, maxRetries: 0 });
});
after(() => gateways?.close());

/** Every name with something left in the store: the sweep's row, chunks or the completion marker. */
async function storedNames(): Promise<string[]> {
  const client = new pg.Client({ connectionString: gateways.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'select name from image_files union select file_id from file_chunks union select file_id from file_contents order by 1',
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/** An image URL handed out by the first instance, and the same path on the second (the balancer's other pick). */
async function generateThroughFirst(prompt: string, format: 'png' | 'webp' = 'png') {
  const result = await throughFirst.images.generate({ model: 'builtin/image', prompt, size: '256x256', output_format: format, response_format: 'url' });
  const url = result.data![0]!.url!;
  assert.match(url, new RegExp(`^${first.origin}/v1/images/files/img_[0-9a-z]+_[0-9a-f]{32}\\.${format}$`), 'the URL format is unchanged');
  const name = url.split('/').pop()!;
  return { url, name, onSecond: `${second.origin}/v1/images/files/${name}` };
}

test('an image URL handed out by one instance serves the same bytes, with the content type, from the other', async () => {
  for (const format of ['png', 'webp'] as const) {
    const { url, name, onSecond } = await generateThroughFirst(`A lighthouse at dusk in ${format}`, format);
    assert.ok((await storedNames()).includes(name), 'the image is in the shared store');

    const fromSecond = await fetch(onSecond);
    assert.equal(fromSecond.status, 200);
    assert.equal(fromSecond.headers.get('content-type'), `image/${format}`);
    assert.match(fromSecond.headers.get('cache-control') ?? '', /^private, max-age=[0-5]$/);
    const bytes = Buffer.from(await fromSecond.arrayBuffer());
    assert.equal(fromSecond.headers.get('content-length'), String(bytes.length));
    const firstAnswer = await fetch(url);
    assert.equal(firstAnswer.status, 200);
    const fromFirst = Buffer.from(await firstAnswer.arrayBuffer());
    assert.ok(bytes.equals(fromFirst), 'the same bytes from either instance');
    const metadata = await sharp(bytes).metadata();
    assert.deepEqual([metadata.format, metadata.width, metadata.height], [format, 256, 256]);
  }
  // Nothing on either instance's disk: the store is where they live.
  for (const gateway of [first, second]) assert.deepEqual(await listFiles(imageDirectories(gateway.dataDir).images), []);
});

test('the URL stays a capability on the other instance: no key needed, none checked, unknown names a 404', async () => {
  const { name, onSecond } = await generateThroughFirst('A red kite');
  const withWrongKey = await fetch(onSecond, { headers: { authorization: 'Bearer sk-not-a-key-of-this-gateway' } });
  assert.equal(withWrongKey.status, 200);
  await withWrongKey.arrayBuffer();
  for (const path of [`/v1/images/files/${name.replace(/[0-9a-f]{4}\.png$/, '0000.png')}`, `/v1/images/files/${name.replace('.png', '.webp')}`, `/v1/images/files/${name}.partial`]) {
    const answer = await rawGet(second.origin, path);
    assert.equal(answer.status, 404, path);
    assert.equal((JSON.parse(answer.body) as { error: { code: string } }).error.code, 'image_not_found', path);
  }
});

test('after its TTL the URL is a 404 on both instances and the sweep deletes its rows from the store', async () => {
  const { url, name, onSecond } = await generateThroughFirst('A moon over the sea');
  const handedOutAt = Date.now();
  const live = await fetch(onSecond);
  assert.equal(live.status, 200);
  await live.arrayBuffer();
  await sleep(handedOutAt + ttlSeconds * 1000 + 100 - Date.now());
  for (const expired of [url, onSecond]) {
    const answer = await fetch(expired);
    assert.equal(answer.status, 404, expired);
    assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'image_not_found');
  }
  // Sweeps run every second on each instance; the expired image's row, chunks and marker all go.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await storedNames()).includes(name)) await sleep(200);
  assert.deepEqual(await storedNames(), [], 'nothing of any expired image is left in the store');
});
