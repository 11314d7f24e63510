import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestBatchStore, type TestBatchStore } from '../../test/helpers/batch-store.js';
import { testDatabases } from '../../test/helpers/test-databases.js';
import { abandonedValidationMs, type BatchStore } from './batch-store.js';

const lineCount = 50;

function newBatch(id: string, now: number) {
  return {
    id,
    accountId: 'acct_a',
    keyId: 'key_a',
    protocol: 'anthropic',
    lines: Array.from({ length: lineCount }, (_, index) => ({ customId: `c${index}`, endpoint: '/v1/messages', body: '{}' })),
    createdAt: now,
    expiresAt: now + 86_400_000,
  };
}

for (const [name, open] of testDatabases) {
  describe(`batch store on ${name}`, () => {
    let batches: TestBatchStore;
    let store: BatchStore;
    before(async () => {
      batches = await openTestBatchStore(open);
      ({ store } = batches);
    });
    after(() => batches.close());

    test('instances claiming at once take different lines, never more than asked; a lapsed lease is claimed again', async () => {
      const now = Date.now();
      await store.create(newBatch('msgbatch_claims', now));
      const claims = await Promise.all(Array.from({ length: 5 }, (_, index) => store.claim(`inst_${index}`, 7, now, now + 1_000)));
      assert.ok(claims.every((claimed) => claimed.length <= 7));
      const positions = claims.flat().map((line) => line.position);
      assert.equal(new Set(positions).size, positions.length, 'no line claimed twice');
      const rest = await store.claim('inst_late', lineCount, now, now + 1_000);
      assert.equal(positions.length + rest.length, lineCount, 'every line claimed once');
      assert.deepEqual(await store.claim('inst_late', lineCount, now, now + 1_000), [], 'live leases hold their lines');
      // Past the leases, every line without an outcome is free again, its attempts counted.
      const again = await store.claim('inst_next', 3, now + 2_000, now + 3_000);
      assert.equal(again.length, 3);
      assert.ok(again.every((line) => line.attempts === 2));
      // Its leases run out in a second of real time: canceled, its lines are not what the next test claims
      // (under load, this test took longer than its leases on SQLite, and the next claimed this batch's line).
      await store.requestCancel('msgbatch_claims', 'acct_a', now);
    });

    test('an outcome is written once; counts add up; cancel sweeps the unclaimed lines and ends the batch', async () => {
      const now = Date.now();
      await store.create(newBatch('msgbatch_outcomes', now));
      const [line] = await store.claim('inst_a', 1, now, now + 10_000);
      assert.ok(line);
      const result = { outcome: 'succeeded' as const, statusCode: 200, requestId: 'req_1', response: '{}' };
      assert.equal(await store.recordOutcome(line, result, undefined, now), true);
      assert.equal(await store.recordOutcome(line, { ...result, outcome: 'errored', statusCode: 500 }, undefined, now), false);
      const [running] = await store.claim('inst_a', 1, now, now + 10_000);
      await store.requestCancel('msgbatch_outcomes', 'acct_a', now);
      assert.equal(await store.get('msgbatch_outcomes', 'acct_b'), undefined, "another account's batch is not found");
      await store.sweep(now + 1);
      let batch = await store.get('msgbatch_outcomes', 'acct_a');
      assert.deepEqual(batch?.counts, { processing: 1, succeeded: 1, errored: 0, canceled: lineCount - 2, expired: 0 });
      assert.equal(batch?.status, 'canceling');
      assert.ok(await store.recordOutcome(running!, result, undefined, now + 2));
      batch = await store.get('msgbatch_outcomes', 'acct_a');
      assert.equal(batch?.status, 'ended');
      assert.deepEqual(batch?.counts, { processing: 0, succeeded: 2, errored: 0, canceled: lineCount - 2, expired: 0 });
      const results = await store.results('msgbatch_outcomes', 0, 1_000);
      assert.equal(results.length, lineCount);
      assert.equal(await store.delete('msgbatch_outcomes', 'acct_a'), 'deleted');
    });

    test('a validating batch runs no line until started; one abandoned mid-insert is failed by the sweep, its lines deleted', async () => {
      const now = Date.now();
      const { lines, ...fields } = newBatch('batch_staged', now);
      await store.createValidating({ ...fields, protocol: 'openai' });
      await store.addLines('batch_staged', 0, lines.slice(0, 20));
      await store.addLines('batch_staged', 20, lines.slice(20));
      assert.deepEqual(await store.claim('inst_v', lineCount, now, now + 1_000), [], 'no line of a validating batch is claimed');
      await store.sweep(now + 1);
      assert.equal((await store.get('batch_staged', 'acct_a'))?.status, 'validating', 'a validation in progress is left alone');
      await store.startValidated('batch_staged', lineCount);
      const started = await store.get('batch_staged', 'acct_a');
      assert.equal(started?.status, 'in_progress');
      assert.equal(started?.lineCount, lineCount);
      const claimed = await store.claim('inst_v', lineCount, now, now + 1_000);
      assert.equal(claimed.filter((line) => line.batchId === 'batch_staged').length, lineCount);
      await store.requestCancel('batch_staged', 'acct_a', now);

      // An instance that stopped after storing some lines: the sweep fails the batch once it is abandoned.
      await store.createValidating({ ...fields, id: 'batch_abandoned', protocol: 'openai', metadata: { endpoint: '/v1/embeddings' } });
      await store.addLines('batch_abandoned', 0, lines.slice(0, 30));
      await store.sweep(now + abandonedValidationMs - 1_000);
      assert.equal((await store.get('batch_abandoned', 'acct_a'))?.status, 'validating');
      await store.sweep(now + abandonedValidationMs + 1_000);
      const failed = await store.get('batch_abandoned', 'acct_a');
      assert.equal(failed?.status, 'ended');
      assert.equal(failed?.lineCount, 0);
      assert.equal(failed?.metadata.endpoint, '/v1/embeddings', 'the protocol fields are kept');
      assert.equal((failed?.metadata.errors as Array<{ code: string }>)[0]?.code, 'validation_interrupted');
      assert.deepEqual(await store.results('batch_abandoned', 0, 1_000), [], 'its lines are deleted');

      // A cancel while the lines are being stored: the batch is canceling once they are in, and none runs.
      await store.createValidating({ ...fields, id: 'batch_canceled_early', protocol: 'openai' });
      await store.addLines('batch_canceled_early', 0, lines.slice(0, 10));
      assert.equal((await store.requestCancel('batch_canceled_early', 'acct_a', now))?.status, 'validating');
      await store.addLines('batch_canceled_early', 10, lines.slice(10));
      await store.startValidated('batch_canceled_early', lineCount);
      assert.equal((await store.get('batch_canceled_early', 'acct_a'))?.status, 'canceling');
      assert.equal((await store.claim('inst_v', lineCount, now, now + 1_000)).filter((line) => line.batchId === 'batch_canceled_early').length, 0);
      await store.sweep(now + 1);
      const canceled = await store.get('batch_canceled_early', 'acct_a');
      assert.equal(canceled?.status, 'ended');
      assert.equal(canceled?.counts.canceled, lineCount);

      // A creation refused midway (too many requests) leaves nothing.
      await store.createValidating({ ...fields, id: 'batch_refused', protocol: 'openai' });
      await store.addLines('batch_refused', 0, lines);
      await store.discardValidating('batch_refused');
      assert.equal(await store.get('batch_refused', 'acct_a'), undefined);
      assert.deepEqual(await store.results('batch_refused', 0, 1_000), []);
    });

    test("an upstream batch's lines are read a page at a time, only its own and only those without an outcome; their IDs without bodies", async () => {
      const now = Date.now();
      const upstreamBatches = ['ubatch_pages_a', 'ubatch_pages_b'].map((id) => ({ id, model: 'm', providerId: 'p', upstreamModel: 'm-up', endpoint: '/v1/messages' }));
      await store.create({
        ...newBatch('msgbatch_pages', now),
        // Every third line to the other upstream batch.
        lines: Array.from({ length: 12 }, (_, index) => ({ customId: `c${index}`, endpoint: '/v1/messages', body: `{"n":${index}}`, upstreamBatchId: index % 3 === 2 ? 'ubatch_pages_b' : 'ubatch_pages_a' })),
        upstreamBatches,
      });
      await store.recordUnanswered({ batchId: 'msgbatch_pages', position: 4 }, 'canceled', now);
      const pages: string[][] = [];
      for await (const page of store.forwardedLinePages('msgbatch_pages', 'ubatch_pages_a', 3)) pages.push(page.map((line) => `${line.position}:${line.customId}:${line.body}`));
      assert.deepEqual(pages, [
        ['0:c0:{"n":0}', '1:c1:{"n":1}', '3:c3:{"n":3}'],
        ['6:c6:{"n":6}', '7:c7:{"n":7}', '9:c9:{"n":9}'],
        ['10:c10:{"n":10}'],
      ]);
      assert.deepEqual(await store.forwardedLineIds('msgbatch_pages', 'ubatch_pages_b'), [2, 5, 8, 11].map((position) => ({ position, customId: `c${position}` })));
      assert.deepEqual(await store.forwardedLineIds('msgbatch_pages', 'ubatch_pages_a', 1), [{ position: 0, customId: 'c0' }]);
      assert.deepEqual(await store.forwardedLineIds('msgbatch_pages', 'ubatch_none'), []);
    });
  });
}
