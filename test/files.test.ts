// OpenAI Files kept by the gateway (issue 37, point 1), through the official `openai` SDK, on SQLite and on
// the real PostgreSQL: upload, list, retrieve, download and delete (every JSON answer checked against our
// contract and OpenAI's published spec by the test gateway); isolation between accounts (404, never 403, on
// every route); batch input checked line by line at upload, with the line named; an upload over the
// configured limit refused with a 413 that names it, leaving nothing on disk; no ledger row for any of it.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import OpenAI, { toFile, toStreamingFile } from 'openai';
import pg from 'pg';
import { configSchema } from '../server/config/config-schema.js';
import { adminApi } from './helpers/admin-api.js';
import { assertMatchesSchema } from './helpers/contract-schemas.js';
import { startGateway, testConfig, type TestGateway } from './helpers/start-gateway.js';
import { postgresSchemaUrl } from './helpers/test-databases.js';

const maxBytes = 64 * 1024;
const databases: Array<[string, () => Promise<{ url?: string; cleanup(): Promise<void> }>]> = [
  ['SQLite', async () => ({ url: undefined, cleanup: async () => {} })],
  ['PostgreSQL', postgresSchemaUrl],
];

const line = (customId: string, url = '/v1/chat/completions', extra: Record<string, unknown> = {}) =>
  JSON.stringify({ custom_id: customId, method: 'POST', url, body: { model: 'builtin/echo', messages: [{ role: 'user', content: `Hello ${customId}` }] }, ...extra });
const jsonl = (...lines: string[]) => `${lines.join('\n')}\n`;

/**
 * What is in the gateway's file storage, stored files and partial writes alike: on SQLite the files
 * directory, on PostgreSQL the IDs in the store's chunk rows (`files.storage: auto`).
 */
async function storedNames(gateway: TestGateway, databaseUrl: string | undefined): Promise<string[]> {
  if (databaseUrl === undefined) return readdir(join(gateway.dataDir, 'files')).catch(() => []);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>('select file_id as id from file_chunks union select file_id from file_contents order by 1');
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

for (const [database, open] of databases) {
  describe(`Files on ${database}`, () => {
    let store: { url?: string; cleanup(): Promise<void> };
    let gateway: TestGateway;
    let client: OpenAI;
    /** A key of another account, and one more key of the first account's. */
    let stranger: OpenAI;
    let strangerKey: string;
    let sibling: OpenAI;

    before(async () => {
      store = await open();
      const config = configSchema.parse({ ...testConfig, files: { max_bytes: maxBytes } });
      gateway = await startGateway({ config, databaseUrl: store.url });
      const sdk = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
      client = sdk(gateway.apiKey);
      const admin = adminApi(gateway);
      const other = await admin.createAccount({ name: 'stranger' });
      strangerKey = (await admin.createKey(other.id, { name: 'stranger' })).key;
      stranger = sdk(strangerKey);
      const me = (await (await fetch(`${gateway.origin}/v1/me`, { headers: { authorization: `Bearer ${gateway.apiKey}` } })).json()) as { account: { id: string } };
      sibling = sdk((await admin.createKey(me.account.id, { name: 'sibling' })).key);
    });
    after(async () => {
      await gateway?.close();
      await store?.cleanup();
    });

    test('upload a batch file, list, retrieve, download, delete, then 404 everywhere', async () => {
      const content = jsonl(line('request-1'), line('request-2', '/v1/responses'), line('request-3', '/v1/embeddings'));
      const created = await client.files.create({ file: await toFile(Buffer.from(content), 'requests.jsonl'), purpose: 'batch' });
      assert.match(created.id, /^file-[0-9a-f]{32}$/);
      assert.equal(created.object, 'file');
      assert.equal(created.bytes, Buffer.byteLength(content));
      assert.equal(created.filename, 'requests.jsonl');
      assert.equal(created.purpose, 'batch');
      assert.equal(created.status, 'processed');
      assert.ok(Math.abs(created.created_at - Date.now() / 1000) < 60);
      assert.equal(created.expires_at, created.created_at + 30 * 86_400, 'batch files expire after 30 days by default, as at OpenAI');

      assert.deepEqual(await client.files.retrieve(created.id), created);
      assert.deepEqual(await sibling.files.retrieve(created.id), created, 'every key of the account sees it');
      const listed = await client.files.list({ purpose: 'batch' });
      assert.deepEqual(listed.data, [created]);
      assert.equal(listed.has_more, false);

      const download = await client.files.content(created.id);
      assert.equal(download.headers.get('content-type'), 'application/octet-stream');
      assert.match(download.headers.get('content-disposition') ?? '', /^attachment; filename="requests\.jsonl"/);
      assert.equal(await download.text(), content);

      assert.ok((await storedNames(gateway, store.url)).includes(created.id), 'stored on disk (SQLite) or in the store (PostgreSQL)');
      assert.deepEqual(await client.files.delete(created.id), { id: created.id, object: 'file', deleted: true });
      await assert.rejects(client.files.retrieve(created.id), OpenAI.NotFoundError);
      await assert.rejects(client.files.content(created.id), OpenAI.NotFoundError);
      await assert.rejects(client.files.delete(created.id), OpenAI.NotFoundError);
      assert.ok(!(await storedNames(gateway, store.url)).includes(created.id), 'the content is gone with the file');
    });

    test('other purposes are stored as sent, with expires_after as the SDK sends it; list pages with after and order', async () => {
      const pdf = await client.files.create({ file: await toFile(Buffer.from('%PDF-1.4 not really'), 'notes.pdf'), purpose: 'user_data' });
      assert.equal(pdf.purpose, 'user_data');
      assert.equal(pdf.expires_at, undefined, 'kept until deleted');
      const expiring = await client.files.create({
        file: await toFile(Buffer.from('{"prompt": "x"}\n'), 'tune.jsonl'),
        purpose: 'fine-tune',
        expires_after: { anchor: 'created_at', seconds: 3600 },
      });
      assert.equal(expiring.expires_at, expiring.created_at + 3600);
      const third = await client.files.create({ file: await toFile(Buffer.from('x'), 'größe "1".txt'), purpose: 'assistants' });
      assert.equal(third.filename, 'größe "1".txt', 'the name as sent, UTF-8 and quotes included');
      const named = await client.files.content(third.id);
      assert.equal(named.headers.get('content-disposition'), `attachment; filename="gr__e _1_.txt"; filename*=UTF-8''${encodeURIComponent('größe "1".txt')}`);
      await named.text();

      const newestFirst = await client.files.list({ limit: 2 });
      assert.deepEqual(newestFirst.data.map((file) => file.id), [third.id, expiring.id]);
      assert.equal(newestFirst.has_more, true);
      const next = await client.files.list({ limit: 2, after: expiring.id });
      assert.deepEqual(next.data.map((file) => file.id), [pdf.id]);
      assert.equal(next.has_more, false);
      const oldestFirst = await client.files.list({ order: 'asc' });
      assert.deepEqual(oldestFirst.data.map((file) => file.id), [pdf.id, expiring.id, third.id]);
      const all: string[] = [];
      for await (const file of client.files.list({ limit: 1 })) all.push(file.id);
      assert.deepEqual(all, [third.id, expiring.id, pdf.id], "the SDK's auto-pagination walks every page");
      assert.deepEqual((await client.files.list({ purpose: 'vision' })).data, []);

      const tooShort = await raw(gateway, gateway.apiKey, form('x.txt', 'x', { purpose: 'user_data', 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '60' }));
      assert.equal(tooShort.status, 400);
      assert.equal(tooShort.body.error.param, 'expires_after');

      for (const file of [pdf, expiring, third]) await client.files.delete(file.id);
    });

    test('another account gets 404 on retrieve, content and delete, and lists none of them', async () => {
      const mine = await client.files.create({ file: await toFile(Buffer.from(jsonl(line('a'))), 'mine.jsonl'), purpose: 'batch' });
      await assert.rejects(stranger.files.retrieve(mine.id), OpenAI.NotFoundError);
      await assert.rejects(stranger.files.content(mine.id), OpenAI.NotFoundError);
      await assert.rejects(stranger.files.delete(mine.id), OpenAI.NotFoundError);
      assert.deepEqual((await stranger.files.list()).data, []);
      const cursor = await raw(gateway, strangerKey, undefined, `/v1/files?after=${mine.id}`);
      assert.equal(cursor.status, 400, "another account's file is no cursor either");
      const answer = await raw(gateway, strangerKey, undefined, `/v1/files/${mine.id}`);
      assert.equal(answer.status, 404);
      assertMatchesSchema('OpenAIError', answer.body);
      assert.deepEqual(await client.files.retrieve(mine.id), mine, 'still there for its owner');
      await client.files.delete(mine.id);
    });

    test('bad batch input is a 400 naming the line and what is wrong, and nothing is kept', async () => {
      const cases: Array<[string, string, RegExp]> = [
        ['not JSON', jsonl(line('a'), '{"custom_id": "b", "method": POST}'), /line 2: it is not valid JSON/],
        ['no custom_id', jsonl(line('a'), line('b'), JSON.stringify({ method: 'POST', url: '/v1/chat/completions', body: {} })), /line 3: 'custom_id' is missing/],
        ['a duplicate custom_id', jsonl(line('a'), line('b'), line('a')), /line 3: 'custom_id' "a" is already used on line 1/],
        ['another url', jsonl(line('a', '/v1/images/generations')), /line 1: 'url' must be one of \/v1\/chat\/completions, \/v1\/responses, \/v1\/embeddings, not "\/v1\/images\/generations"/],
        ['another method', jsonl(line('a', '/v1/chat/completions', { method: 'GET' })), /line 1: 'method' must be "POST"/],
        ['a body that is no object', jsonl(line('a', '/v1/chat/completions', { body: 'hi' })), /line 1: 'body' must be a JSON object/],
        ['an array line', jsonl(line('a'), '[1, 2]'), /line 2: it is not a JSON object/],
        ['no request at all', '\n\n', /no request/],
      ];
      const before = await storedNames(gateway, store.url);
      for (const [what, content, message] of cases) {
        const error = await client.files.create({ file: await toFile(Buffer.from(content), 'bad.jsonl'), purpose: 'batch' }).then(
          () => assert.fail(`${what} was taken`),
          (caught: unknown) => caught,
        );
        assert.ok(error instanceof OpenAI.BadRequestError, `${what}: ${String(error)}`);
        assert.match(error.message, message, what);
        assert.equal(error.param, 'file');
        assert.equal(error.code, 'invalid_batch_input');
      }
      // With `purpose` before the file, the first bad line ends the upload there.
      const early = await raw(gateway, gateway.apiKey, form('bad.jsonl', jsonl(line('a'), 'oops', line('c')), { purpose: 'batch' }, true));
      assert.equal(early.status, 400);
      assert.match(early.body.error.message, /line 2: it is not valid JSON/);
      // The same bytes under another purpose are just a file.
      const kept = await client.files.create({ file: await toFile(Buffer.from(jsonl(line('a'), line('a'))), 'dup.jsonl'), purpose: 'user_data' });
      await client.files.delete(kept.id);
      await sleep(50);
      assert.deepEqual(await storedNames(gateway, store.url), before, 'no refused upload left anything in storage');
    });

    test('an upload over files.max_bytes is a 413 naming the limit, and nothing is kept', async () => {
      const before = await storedNames(gateway, store.url);
      async function* oversized() {
        const chunk = Buffer.from(`${line('x'.repeat(100))}\n`.repeat(20));
        for (let sent = 0; sent <= maxBytes * 2; sent += chunk.length) yield chunk;
      }
      const error = await client.files.create({ file: toStreamingFile(oversized(), 'big.jsonl'), purpose: 'user_data' }).then(
        () => assert.fail('an oversized upload was taken'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof OpenAI.APIError && error.status === 413, String(error));
      assert.match(error.message, new RegExp(`over the ${maxBytes}-byte limit for uploads \\(files\\.max_bytes\\)`));
      assert.equal(error.code, 'file_too_large');
      await sleep(50);
      assert.deepEqual(await storedNames(gateway, store.url), before, 'nothing of it is left in storage');
      assert.deepEqual((await client.files.list({ purpose: 'user_data' })).data, []);
      // Exactly at the limit is taken.
      const atLimit = await client.files.create({ file: await toFile(Buffer.alloc(maxBytes, 'a'), 'full.txt'), purpose: 'user_data' });
      assert.equal(atLimit.bytes, maxBytes);
      await client.files.delete(atLimit.id);
    });

    test('a form without a file, or with another file field, is a 400', async () => {
      const none = await raw(gateway, gateway.apiKey, form(undefined, '', { purpose: 'batch' }));
      assert.equal(none.status, 400);
      assert.equal(none.body.error.param, 'file');
      const body = new FormData();
      body.append('purpose', 'batch');
      body.append('image', new Blob(['x']), 'x.png');
      const wrongField = await raw(gateway, gateway.apiKey, body);
      assert.equal(wrongField.status, 400);
      assert.match(wrongField.body.error.message, /Unexpected file field 'image'/);
      const evals = await raw(gateway, gateway.apiKey, form('e.jsonl', jsonl(line('a')), { purpose: 'evals' }));
      assert.equal(evals.status, 400, 'evals: no such purpose in the file object OpenAI answers with');
    });

    test('files are no model call: no ledger row', async () => {
      const admin = adminApi(gateway);
      const account = await admin.createAccount({ name: 'files only' });
      const key = (await admin.createKey(account.id, { name: 'files only' })).key;
      const own = new OpenAI({ apiKey: key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
      const file = await own.files.create({ file: await toFile(Buffer.from(jsonl(line('a'))), 'a.jsonl'), purpose: 'batch' });
      await own.files.retrieve(file.id);
      await (await own.files.content(file.id)).text();
      await own.files.list();
      await own.files.delete(file.id);
      await assert.rejects(own.files.retrieve(file.id), OpenAI.NotFoundError);
      // Rows are written about once a second: wait for two flushes.
      await sleep(2_200);
      const records = await fetch(`${gateway.origin}/admin/v1/usage/records?account_id=${account.id}`, { headers: { authorization: `Bearer ${gateway.adminKey}` } });
      assert.deepEqual(((await records.json()) as { data: unknown[] }).data, []);
    });
  });
}

/** A multipart form; `purposeFirst` puts the text fields before the file, as some clients do. */
function form(filename: string | undefined, content: string, fields: Record<string, string>, purposeFirst = false): FormData {
  const body = new FormData();
  const addFields = () => Object.entries(fields).forEach(([name, value]) => body.append(name, value));
  if (purposeFirst) addFields();
  if (filename !== undefined) body.append('file', new Blob([content]), filename);
  if (!purposeFirst) addFields();
  return body;
}

async function raw(gateway: TestGateway, apiKey: string, body: FormData | undefined, path = '/v1/files'): Promise<{ status: number; body: { error: { message: string; param?: string | null; code?: string | null } } }> {
  const response = await fetch(`${gateway.origin}${path}`, { method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${apiKey}` }, body });
  return { status: response.status, body: (await response.json()) as { error: { message: string; param?: string | null; code?: string | null } } };
}
