// OpenAI Conversations kept by the gateway (issue 36, point 3), through the official `openai` SDK, on SQLite
// and on the real PostgreSQL: the eight routes (every answer checked against our contract and OpenAI's
// published spec by the test gateway), isolation between accounts, appends that lose nothing when turns
// run at once, and `POST /v1/responses` with `conversation` over the built-in model and an Anthropic
// upstream (a fake that replays Anthropic's recorded stream), streamed and not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { adminApi } from './helpers/admin-api.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { recordResponsesStreams, terminalResponse } from './helpers/responses-stream.js';
import { startGateway, testConfig, type TestGateway } from './helpers/start-gateway.js';
import { postgresSchemaUrl } from './helpers/test-databases.js';
import { baseUrlFor, upstreamKey, upstreamModel } from './helpers/upstream-gateway.js';

type Item = Record<string, unknown>;
const anthropicText = { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' } as const;

const databases: Array<[string, () => Promise<{ url?: string; cleanup(): Promise<void> }>]> = [
  ['SQLite', async () => ({ url: undefined, cleanup: async () => {} })],
  ['PostgreSQL', postgresSchemaUrl],
];

for (const [database, open] of databases) {
  describe(`Conversations on ${database}`, () => {
    let store: { url?: string; cleanup(): Promise<void> };
    let upstream: FakeUpstream;
    let gateway: TestGateway;
    let client: OpenAI;
    const wire = recordResponsesStreams();

    before(async () => {
      store = await open();
      upstream = await startFakeUpstream();
      const config = configSchema.parse({
        ...testConfig,
        providers: [...testConfig.providers, { id: 'anthropic-fake', type: 'anthropic', base_url: baseUrlFor('anthropic', upstream.origin), api_key: upstreamKey }],
        models: [...testConfig.models, { id: 'claude-fake', provider: 'anthropic-fake', upstream_model: upstreamModel }],
      });
      gateway = await startGateway({ config, databaseUrl: store.url });
      client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0, fetch: wire.fetch });
    });
    after(async () => {
      await gateway?.close();
      await upstream?.close();
      await store?.cleanup();
    });

    test('create with metadata and items, retrieve, update, delete, then 404', async () => {
      const created = await client.conversations.create({ metadata: { topic: 'weather' }, items: [{ type: 'message', role: 'user', content: 'Hello!' }] });
      assert.match(created.id, /^conv_[0-9a-f]{48}$/);
      assert.equal(created.object, 'conversation');
      assert.deepEqual(created.metadata, { topic: 'weather' });
      assert.ok(Math.abs(created.created_at - Date.now() / 1000) < 60);
      assert.deepEqual(await client.conversations.retrieve(created.id), created);
      const updated = await client.conversations.update(created.id, { metadata: { topic: 'travel' } });
      assert.deepEqual(updated, { ...created, metadata: { topic: 'travel' } });
      const [first] = (await client.conversations.items.list(created.id)).data as unknown as Item[];
      assert.deepEqual(first, { id: first!.id, type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'Hello!' }] });
      assert.match(String(first!.id), /^msg_/);
      assert.deepEqual(await client.conversations.delete(created.id), { id: created.id, object: 'conversation.deleted', deleted: true });
      await assert.rejects(client.conversations.retrieve(created.id), OpenAI.NotFoundError);
      await assert.rejects(client.conversations.items.list(created.id), OpenAI.NotFoundError);
      await assert.rejects(client.conversations.delete(created.id), OpenAI.NotFoundError);
    });

    test('an empty conversation (as the Agents SDK makes one) lists no items', async () => {
      const created = await client.conversations.create({ items: [] });
      assert.deepEqual(created.metadata, {});
      const page = await client.conversations.items.list(created.id, { order: 'asc' });
      assert.deepEqual(page.data, []);
      assert.equal(page.has_more, false);
    });

    test('items: create, list in both orders with after and limit, retrieve, delete', async () => {
      const { id } = await client.conversations.create({});
      const texts = ['one', 'two', 'three', 'four', 'five'];
      const added = await client.conversations.items.create(id, { items: texts.map((text) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] })) });
      assert.equal(added.data.length, 5);
      const ids = added.data.map((item) => item.id!);
      assert.equal(new Set(ids).size, 5);
      assert.equal(added.first_id, ids[0]);
      assert.equal(added.last_id, ids[4]);

      const textOf = (item: Item) => ((item.content as Item[])[0]!.text as string);
      const firstPage = await client.conversations.items.list(id, { order: 'asc', limit: 2 });
      assert.deepEqual((firstPage.data as unknown as Item[]).map(textOf), ['one', 'two']);
      assert.equal(firstPage.has_more, true);
      assert.equal(firstPage.last_id, ids[1]);
      const next = await client.conversations.items.list(id, { order: 'asc', limit: 2, after: firstPage.last_id });
      assert.deepEqual((next.data as unknown as Item[]).map(textOf), ['three', 'four']);
      // Newest first is the default, and `after` counts in that order.
      const newest = await client.conversations.items.list(id, { limit: 2 });
      assert.deepEqual((newest.data as unknown as Item[]).map(textOf), ['five', 'four']);
      const older = await client.conversations.items.list(id, { limit: 10, after: ids[3] });
      assert.deepEqual((older.data as unknown as Item[]).map(textOf), ['three', 'two', 'one']);
      assert.equal(older.has_more, false);
      // The SDK's auto-pagination walks every page with `after`.
      const all: string[] = [];
      for await (const item of client.conversations.items.list(id, { order: 'asc', limit: 2 })) all.push(textOf(item as unknown as Item));
      assert.deepEqual(all, texts);

      const unknownCursor = await fetch(`${gateway.origin}/v1/conversations/${id}/items?after=msg_nope`, { headers: { authorization: `Bearer ${gateway.apiKey}` } });
      assert.equal(unknownCursor.status, 400);
      assert.equal(((await unknownCursor.json()) as { error: { param: string } }).error.param, 'after');

      assert.equal(textOf((await client.conversations.items.retrieve(ids[2]!, { conversation_id: id })) as unknown as Item), 'three');
      const afterDelete = await client.conversations.items.delete(ids[2]!, { conversation_id: id });
      assert.equal(afterDelete.id, id);
      assert.equal(afterDelete.object, 'conversation');
      await assert.rejects(client.conversations.items.retrieve(ids[2]!, { conversation_id: id }), OpenAI.NotFoundError);
      await assert.rejects(client.conversations.items.delete(ids[2]!, { conversation_id: id }), OpenAI.NotFoundError);
      assert.deepEqual(((await client.conversations.items.list(id, { order: 'asc' })).data as unknown as Item[]).map(textOf), ['one', 'two', 'four', 'five']);
    });

    test('bad input is a 400 in OpenAI\'s shape', async () => {
      const { id } = await client.conversations.create({});
      const tooMany = Array.from({ length: 21 }, () => ({ type: 'message' as const, role: 'user' as const, content: 'x' }));
      await assert.rejects(client.conversations.items.create(id, { items: tooMany }), OpenAI.BadRequestError);
      await assert.rejects(client.conversations.create({ metadata: { ['k'.repeat(65)]: 'v' } }), (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === 'metadata');
      await assert.rejects(client.conversations.items.list(id, { limit: 101 }), OpenAI.BadRequestError);
    });

    test('turns appended at once each keep all their items, in order within each turn', async () => {
      const { id } = await client.conversations.create({});
      const turns = Array.from({ length: 8 }, (_, turn) => ({ turn, texts: [`${turn}a`, `${turn}b`, `${turn}c`] }));
      await Promise.all(
        turns.map(({ texts }) => client.conversations.items.create(id, { items: texts.map((text) => ({ type: 'message', role: 'user', content: text })) })),
      );
      const listed: string[] = [];
      for await (const item of client.conversations.items.list(id, { order: 'asc', limit: 100 })) listed.push(((item as unknown as Item).content as Item[])[0]!.text as string);
      assert.equal(listed.length, 24);
      for (const { texts } of turns) {
        const at = listed.indexOf(texts[0]!);
        assert.deepEqual(listed.slice(at, at + 3), texts, 'a turn\'s items stay together and in order');
      }
    });

    test("another account's conversation is not found anywhere; another key of the same account sees it", async () => {
      const created = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'Mine' }] });
      const [item] = (await client.conversations.items.list(created.id)).data;
      const admin = adminApi(gateway);
      const account = await admin.createAccount({ name: `other-${database}` });
      const other = new OpenAI({ apiKey: (await admin.createKey(account.id, { name: 'other' })).key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
      const notFound = (error: unknown) => error instanceof OpenAI.NotFoundError;
      await assert.rejects(other.conversations.retrieve(created.id), notFound);
      await assert.rejects(other.conversations.update(created.id, { metadata: { stolen: 'yes' } }), notFound);
      await assert.rejects(other.conversations.items.list(created.id), notFound);
      await assert.rejects(other.conversations.items.retrieve(item!.id!, { conversation_id: created.id }), notFound);
      await assert.rejects(other.conversations.items.create(created.id, { items: [{ type: 'message', role: 'user', content: 'planted' }] }), notFound);
      await assert.rejects(other.conversations.items.delete(item!.id!, { conversation_id: created.id }), notFound);
      await assert.rejects(other.responses.create({ model: 'builtin/echo', input: 'x', conversation: created.id }), (error: unknown) => notFound(error) && (error as InstanceType<typeof OpenAI.APIError>).param === 'conversation');
      await assert.rejects(other.conversations.delete(created.id), notFound);
      // Nothing the other account tried changed it.
      assert.deepEqual(await client.conversations.retrieve(created.id), created);
      assert.equal((await client.conversations.items.list(created.id)).data.length, 1);

      const colleague = new OpenAI({ apiKey: (await admin.createKey('acct_default', { name: `colleague-${database}` })).key, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
      assert.deepEqual(await colleague.conversations.retrieve(created.id), created);
    });

    test('conversation and previous_response_id together are a 400, as at OpenAI', async () => {
      const { id } = await client.conversations.create({});
      const earlier = await client.responses.create({ model: 'builtin/echo', input: 'first' });
      await assert.rejects(
        client.responses.create({ model: 'builtin/echo', input: 'x', conversation: id, previous_response_id: earlier.id }),
        (error: unknown) => error instanceof OpenAI.BadRequestError && error.code === 'mutually_exclusive_parameters',
      );
      assert.equal((await client.conversations.items.list(id)).data.length, 0, 'the refused turn added nothing');
    });

    test('responses in a conversation on the built-in model: each turn sees the earlier ones and is appended, streamed and not', async () => {
      const { id } = await client.conversations.create({ items: [{ type: 'message', role: 'developer', content: 'Be brief.' }] });
      const first = await client.responses.create({ model: 'builtin/echo', input: 'Remember the word kumquat.', conversation: id });
      assert.deepEqual((first as unknown as { conversation: unknown }).conversation, { id });
      const second = await client.responses.stream({ model: 'builtin/echo', input: [{ role: 'user', content: 'What was the word?' }], conversation: { id } }).finalResponse();
      const [events] = await wire.checked();
      assert.deepEqual((terminalResponse(events!) as unknown as { conversation: unknown }).conversation, { id });
      assert.equal(second.status, 'completed');

      const items = (await client.conversations.items.list(id, { order: 'asc' })).data as unknown as Item[];
      assert.deepEqual(
        items.map((item) => [item.type, item.role]),
        [['message', 'developer'], ['message', 'user'], ['message', 'assistant'], ['message', 'user'], ['message', 'assistant']],
      );
      // The output items are kept under the IDs the responses gave them; the input under those input_items lists.
      assert.equal(items[2]!.id, first.output[0]!.id);
      assert.equal(items[4]!.id, second.output[0]!.id);
      assert.equal(items[3]!.id, (await client.responses.inputItems.list(second.id)).data[0]!.id);
      // The model is given the whole conversation before the turn: more input than the turn alone.
      const inConversation = await client.responses.create({ model: 'builtin/echo', input: 'How long is this?', conversation: id });
      const alone = await client.responses.create({ model: 'builtin/echo', input: 'How long is this?' });
      assert.ok(inConversation.usage!.input_tokens > alone.usage!.input_tokens + 10, `${inConversation.usage!.input_tokens} vs ${alone.usage!.input_tokens}`);
      assert.equal((await client.conversations.items.list(id)).data.length, 7);
    });

    for (const stream of [false, true]) {
      test(`responses in a conversation on an Anthropic upstream (${stream ? 'streamed' : 'not streamed'}): the upstream gets the conversation's items`, async () => {
        const { id } = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'What is the capital of France?' }, { type: 'message', role: 'assistant', content: 'Paris.' }] });
        upstream.enqueue(anthropicText);
        const request = { model: 'claude-fake', input: 'And of Italy?', conversation: id } as const;
        const answer = stream ? await client.responses.stream(request).finalResponse() : await client.responses.create(request);
        if (stream) await wire.checked();
        assert.match(answer.output_text, /^Hello!/);
        assert.deepEqual((answer as unknown as { conversation: unknown }).conversation, { id });
        const sent = upstream.requests.at(-1)!.json as { messages: Array<{ role: string; content: unknown }> };
        const text = (content: unknown) => (typeof content === 'string' ? content : (content as Item[]).map((block) => block.text).join(''));
        assert.deepEqual(sent.messages.map((message) => [message.role, text(message.content)]), [['user', 'What is the capital of France?'], ['assistant', 'Paris.'], ['user', 'And of Italy?']]);
        assert.ok(!('conversation' in (sent as object)), 'the gateway\'s conversation is never named upstream');
        const items = (await client.conversations.items.list(id, { order: 'asc' })).data as unknown as Item[];
        assert.equal(items.length, 4);
        assert.equal(items[3]!.id, answer.output.at(-1)!.id);
      });
    }
  });
}
