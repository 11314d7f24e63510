// Writing an OpenAI batch's output and error files once (finish-openai-batches.ts), on SQLite and a real
// PostgreSQL: several instances finishing the same ended batch at once write one set of files between them;
// a batch that ended with no one to read it (the gateway restarted between its last line and its files) is
// finished by the next runner round; the files hold every line once, in OpenAI's line format.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { testDatabases, type TestDatabase } from '../../test/helpers/test-databases.js';
import { AccountFiles } from '../files/account-files.js';
import { LocalDiskFileStorage } from '../files/local-disk-file-storage.js';
import { FileStore } from '../store/file-store.js';
import { migrateToLatest } from '../store/migrations.js';
import { BatchFinishes } from './batch-finishes.js';
import type { BatchStore } from './batch-store.js';
import { openBatchStore } from './open-batch-store.js';
import { OpenAIBatchFinisher, type OpenAIBatchFinish } from './finish-openai-batches.js';

const account = 'acct_finish';

for (const [name, open] of testDatabases) {
  describe(`finishing OpenAI batches on ${name}`, () => {
    let database: TestDatabase;
    let directory: string;
    let store: BatchStore;
    let closeStore: () => Promise<void>;
    let files: AccountFiles;
    const finisher = (instanceId: string) =>
      new OpenAIBatchFinisher({ store, finishes: new BatchFinishes(database.db), files, instanceId, leaseMs: 30_000, logger: pino({ level: 'silent' }) });

    before(async () => {
      database = await open();
      await migrateToLatest(database.db);
      directory = await mkdtemp(join(tmpdir(), 'batch-files-'));
      // As production builds it: on SQLite, in its own thread (open-batch-store.ts).
      ({ store, close: closeStore } = await openBatchStore(database.db));
      files = new AccountFiles(new FileStore(database.db), new LocalDiskFileStorage(directory), { maxLineBytes: 1 << 20 });
    });
    after(async () => {
      await closeStore();
      await database.db.destroy();
      await database.cleanup();
      await rm(directory, { recursive: true, force: true });
    });

    /** An OpenAI batch of `count` lines, every one ended: even lines answered 200, odd ones 400. */
    async function endedBatch(id: string, count: number): Promise<void> {
      const now = Date.now();
      await store.create({
        id, accountId: account, keyId: 'key_a', protocol: 'openai', metadata: { endpoint: '/v1/chat/completions' },
        lines: Array.from({ length: count }, (_, index) => ({ customId: `c${index}`, endpoint: '/v1/chat/completions', body: '{}' })),
        createdAt: now, expiresAt: now + 86_400_000,
      });
      const claimed = await store.claim('inst_runner', count, now, now + 30_000);
      assert.equal(claimed.length, count);
      for (const line of claimed) {
        const ok = line.position % 2 === 0;
        const response = ok ? JSON.stringify({ object: 'chat.completion', usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } }) : JSON.stringify({ error: { message: 'bad', type: 'invalid_request_error', param: null, code: null } });
        await store.recordOutcome(line, { outcome: ok ? 'succeeded' : 'errored', statusCode: ok ? 200 : 400, requestId: `req_${line.position}`, response }, undefined, now);
      }
      assert.equal((await store.get(id, account))?.status, 'ended');
    }

    async function linesOf(fileId: string | null): Promise<Array<{ custom_id: string; response: { status_code: number } }>> {
      const opened = fileId === null ? undefined : await files.openLines(account, fileId);
      assert.ok(opened);
      const lines = [];
      for await (const line of opened.lines) lines.push(JSON.parse(line.text));
      return lines;
    }

    test('instances finishing one batch at once write one output and one error file between them', async () => {
      await endedBatch('batch_together', 1_201);
      const finished = await Promise.all(['inst_a', 'inst_b', 'inst_c'].map((instance) => finisher(instance).finish('batch_together', account)));
      const recorded = (await store.get('batch_together', account))!;
      assert.ok(recorded.finishedAt);
      const finish = recorded.finish as unknown as OpenAIBatchFinish;
      // Those that lost the claim saw the batch unfinished or finished, never other files.
      for (const batch of finished) if (batch?.finish) assert.deepEqual(batch.finish, recorded.finish);
      const listed = await files.list(account, { purpose: 'batch_output', limit: 100, order: 'asc' });
      assert.ok(listed !== 'unknown-cursor');
      assert.deepEqual(new Set(listed.files.map((file) => file.id)), new Set([finish.outputFileId, finish.errorFileId]));
      const output = await linesOf(finish.outputFileId);
      const errors = await linesOf(finish.errorFileId);
      assert.equal(output.length, 601);
      assert.equal(errors.length, 600);
      assert.deepEqual(output.slice(0, 2).map((line) => line.custom_id), ['c0', 'c2']);
      assert.ok(errors.every((line) => line.response.status_code === 400));
      assert.deepEqual(finish.usage, { input_tokens: 1803, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1202, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 3005 });
      // Finishing again does nothing.
      await finisher('inst_d').finish('batch_together', account);
      assert.deepEqual((await store.get('batch_together', account))?.finish, recorded.finish);
    });

    test('a batch that ended with no one reading it is finished by the next round of a new instance', async () => {
      await endedBatch('batch_after_restart', 3);
      await finisher('inst_restarted').finishWaiting(Date.now());
      const recorded = (await store.get('batch_after_restart', account))!;
      const finish = recorded.finish as unknown as OpenAIBatchFinish;
      assert.equal((await linesOf(finish.outputFileId)).length, 2);
      assert.equal((await linesOf(finish.errorFileId)).length, 1);
    });
  });
}
