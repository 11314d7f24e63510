// Issue 38, point 3: the config file reloads without a restart, on `POST /admin/v1/config/reload` and on
// SIGHUP. A gateway process serves a stream from the old config's provider while the file is rewritten and
// reloaded: the stream completes on the old config, the new model answers at once, the removed one is gone.
// An invalid file (bad YAML, a schema error) keeps the running config and its error names the line.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { spawnGateway, type GatewayProcess } from './helpers/spawn-gateway.js';
import { baseUrlFor, upstreamKey } from './helpers/upstream-gateway.js';

const adminKey = 'admin-config-reload';
let gateway: GatewayProcess;
let configFile: string;
let oldUpstream: FakeUpstream;
let newUpstream: FakeUpstream;
let key: string;

/** A config with one provider (`id`, on `upstream`) serving the given models. */
function configWith(id: string, upstream: FakeUpstream, models: string[], extra: string[] = []): string {
  return [
    'providers:',
    `  - { id: ${id}, type: openai, base_url: "${baseUrlFor('openai', upstream.origin)}", api_key: "${upstreamKey}" }`,
    'models:',
    ...models.map((model) => `  - { id: ${model}, provider: ${id}, upstream_model: upstream-model }`),
    ...extra,
  ].join('\n');
}

async function reload(secret = adminKey): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
  const response = await fetch(`${gateway.origin}/admin/v1/config/reload`, { method: 'POST', headers: { authorization: `Bearer ${secret}` } });
  return { status: response.status, body: await response.json() };
}

async function chat(model: string): Promise<number> {
  const response = await fetch(`${gateway.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function modelIds(): Promise<string[]> {
  const response = await fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id);
}

before(async () => {
  oldUpstream = await startFakeUpstream();
  newUpstream = await startFakeUpstream();
  configFile = join(await mkdtemp(join(tmpdir(), 'config-reload-')), 'gateway.yaml');
  await writeFile(configFile, configWith('old', oldUpstream, ['m-old']));
  gateway = await spawnGateway({ GATEWAY_CONFIG: configFile, GATEWAY_ADMIN_KEY: adminKey });
  const created = await fetch(`${gateway.origin}/admin/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'reload' }) });
  key = ((await created.json()) as { key: string }).key;
});

after(async () => {
  gateway.child.kill('SIGKILL');
  await oldUpstream.close();
  await newUpstream.close();
});

test('the admin call swaps in a new model while a stream started before it completes on the old config', async () => {
  oldUpstream.enqueue({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat', chunkDelayMs: 10 });
  // Some 300 events 10 ms apart: the stream runs for seconds, across the reload and the calls after it.
  const streaming = await fetch(`${gateway.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm-old', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
  });
  assert.equal(streaming.status, 200);
  const reader = streaming.body!.getReader();
  const decoder = new TextDecoder();
  let streamed = decoder.decode((await reader.read()).value);

  await writeFile(configFile, configWith('new', newUpstream, ['m-new'], ['responses: { retention_days: 2 }']));
  const { status, body } = await reload();
  assert.equal(status, 200, JSON.stringify(body));
  assert.deepEqual(body, { models: { added: ['m-new'], removed: ['m-old'] }, providers: { added: ['new'], removed: ['old'] }, needs_restart: ['responses'] });

  newUpstream.enqueue({ fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' });
  assert.equal(await chat('m-new'), 200, 'the new model answers from the new provider');
  assert.equal(newUpstream.requests.length, 1);
  assert.equal(await chat('m-old'), 404, 'the removed model is gone for new requests');

  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) streamed += decoder.decode(chunk.value);
  assert.match(streamed, /data: \[DONE\]/, 'the stream started before the reload completed');
  assert.doesNotMatch(streamed, /"error"/);
  assert.equal(oldUpstream.requests.length, 1);
});

test('an invalid file keeps the running config; the admin call answers 400 naming the line', async () => {
  await writeFile(configFile, configWith('new', newUpstream, ['m-new']));
  assert.equal((await reload()).status, 200);

  await writeFile(configFile, ['providers:', '  - { id: new, type: openai', 'models: []'].join('\n'));
  const badYaml = await reload();
  assert.equal(badYaml.status, 400);
  assert.match(badYaml.body.error.message, /gateway\.yaml: invalid YAML: .*at line 3, column 1/s);

  // Line 5 is the second model, whose `pricing` is no object.
  await writeFile(configFile, [...configWith('new', newUpstream, ['m-new']).split('\n'), '  - { id: m-bad, provider: new, pricing: free }'].join('\n'));
  const badSchema = await reload();
  assert.equal(badSchema.status, 400);
  assert.match(badSchema.body.error.message, /gateway\.yaml: invalid configuration\n {2}line 5: models\[1\]\.pricing: /);

  assert.deepEqual(await modelIds(), ['m-new'], 'the running config stayed');
  newUpstream.enqueue({ fixture: 'openai-chat/non-stream-text.json', protocol: 'openai-chat' });
  assert.equal(await chat('m-new'), 200);
});

test('SIGHUP reloads the file, and logs the line of an invalid one', async () => {
  await writeFile(configFile, configWith('new', newUpstream, ['m-new', 'm-hup']));
  gateway.child.kill('SIGHUP');
  const deadline = Date.now() + 5_000;
  while (!(await modelIds()).includes('m-hup')) {
    assert.ok(Date.now() < deadline, `SIGHUP did not add m-hup:\n${gateway.output()}`);
    await sleep(100);
  }

  await writeFile(configFile, [...configWith('new', newUpstream, ['m-new']).split('\n'), '  - { id: m-bad, provider: missing-provider }'].join('\n'));
  gateway.child.kill('SIGHUP');
  while (!/line 5: models\[1\]\.provider: unknown provider 'missing-provider'.*"msg":"config reload refused"/.test(gateway.output())) {
    assert.ok(Date.now() < deadline + 5_000, `no refusal logged:\n${gateway.output()}`);
    await sleep(100);
  }
  assert.deepEqual(await modelIds(), ['m-new', 'm-hup'], 'the running config stayed');
});

test('a key that is not the admin key may not reload', async () => {
  assert.equal((await reload(key)).status, 401);
  assert.equal((await reload('sk-not-a-key')).status, 401);
});
