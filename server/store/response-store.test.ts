// The response store on SQLite and a real PostgreSQL: owner scoping, expiry, deletion, conversation chains.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testDatabases, type TestDatabase } from '../../test/helpers/test-databases.js';
import { migrateToLatest } from './migrations.js';
import { ResponseStore, type StoredResponse } from './response-store.js';

const userSays = (id: string, text: string) => ({ id, type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const answer = (id: string, text: string) => ({ id, object: 'response', output: [{ id: `msg_${id}`, type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }] });

function stored(id: string, extra: Partial<StoredResponse> = {}): StoredResponse {
  return {
    id,
    ownerId: 'key_a',
    previousResponseId: null,
    createdAt: 1_000,
    expiresAt: 2_000,
    inputItems: [userSays(`in_${id}`, `question ${id}`)],
    response: answer(id, `answer ${id}`),
    ...extra,
  };
}

for (const [name, open] of testDatabases) {
  describe(`response store on ${name}`, () => {
    let database: TestDatabase;
    let now = 1_500;
    let store: ResponseStore;
    before(async () => {
      database = await open();
      await migrateToLatest(database.db);
      store = new ResponseStore(database.db, () => now);
    });
    after(async () => {
      await database.db.destroy();
      await database.cleanup();
    });

    test('gives a response back to its owner only', async () => {
      await store.save(stored('resp_1'));
      assert.deepEqual((await store.get('resp_1', 'key_a'))?.response, answer('resp_1', 'answer resp_1'));
      assert.equal(await store.get('resp_1', 'key_b'), undefined);
      assert.equal(await store.delete('resp_1', 'key_b'), false);
    });

    test('remembers which upstream also holds a response', async () => {
      await store.save(stored('resp_up', { upstream: { providerId: 'openai-eu', responseId: 'resp_abc' } }));
      await store.save(stored('resp_local'));
      assert.deepEqual((await store.get('resp_up', 'key_a'))?.upstream, { providerId: 'openai-eu', responseId: 'resp_abc' });
      assert.equal((await store.get('resp_local', 'key_a'))?.upstream, null);
    });

    test('rebuilds a conversation oldest first: inputs then outputs of every turn', async () => {
      await store.save(stored('resp_2'));
      await store.save(stored('resp_3', { previousResponseId: 'resp_2' }));
      const conversation = await store.conversation('resp_3', 'key_a');
      assert.deepEqual(
        conversation?.items.map((item) => item.id),
        ['in_resp_2', 'msg_resp_2', 'in_resp_3', 'msg_resp_3'],
      );
      assert.equal(await store.conversation('resp_3', 'key_b'), undefined);
    });

    test('a deleted link breaks the chain: not found rather than half a conversation', async () => {
      await store.save(stored('resp_4'));
      await store.save(stored('resp_5', { previousResponseId: 'resp_4' }));
      assert.equal(await store.delete('resp_4', 'key_a'), true);
      assert.equal(await store.get('resp_4', 'key_a'), undefined);
      assert.equal(await store.conversation('resp_5', 'key_a'), undefined);
    });

    test('expired responses are invisible, then purged with their items', async () => {
      await store.save(stored('resp_6', { expiresAt: 1_600 }));
      assert.ok(await store.get('resp_6', 'key_a'));
      now = 1_600;
      assert.equal(await store.get('resp_6', 'key_a'), undefined);
      assert.equal((await store.findItems(['msg_resp_6'], 'key_a')).size, 0);
      assert.ok((await store.purgeExpired()) >= 1);
      now = 1_500;
      assert.equal(await store.get('resp_6', 'key_a'), undefined, 'gone for good');
      assert.equal((await store.findItems(['msg_resp_6'], 'key_a')).size, 0, 'the item index went with it');
    });

    test("finds any of the owner's stored items by ID, inputs and outputs alike", async () => {
      await store.save(stored('resp_7'));
      const found = await store.findItems(['in_resp_7', 'msg_resp_7', 'msg_unknown'], 'key_a');
      assert.deepEqual(found.get('in_resp_7'), userSays('in_resp_7', 'question resp_7'));
      assert.deepEqual(found.get('msg_resp_7'), answer('resp_7', 'answer resp_7').output[0]);
      assert.equal(found.size, 2);
      assert.equal((await store.findItems(['msg_resp_7'], 'key_b')).size, 0, "not another owner's");
      await store.delete('resp_7', 'key_a');
      assert.equal((await store.findItems(['msg_resp_7'], 'key_a')).size, 0, 'not a deleted response’s');
    });
  });
}
