// The OpenAI Agents SDK (`@openai/agents`, its real package) keeping a conversation in the gateway (issue 36,
// point 3), on the built-in model and on an Anthropic upstream (a fake replaying Anthropic's recorded
// stream), streamed and not. Two ways the SDK does it:
// - `OpenAIConversationsSession` (packages/agents-openai/src/memory/openaiConversationsSession.ts): creates a
//   conversation (`POST /v1/conversations` with `items: []`), reads its items before each turn
//   (`GET …/items?order=asc`) and sends them as the turn's input, then appends the turn's items
//   (`POST …/items`);
// - `run(…, { conversationId })`: the server keeps the history; each turn is `POST /v1/responses` with
//   `conversation` and only the new input.
// Either way the second turn must reach the model with the first one before it.
// The Agents SDK's newest releases need `openai` 7 (Node >= 22): this is the newest on `openai` 6, and
// test/sdk-next runs this file again with the newest.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent, OpenAIConversationsSession, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { startGateway, testConfig, type TestGateway } from './helpers/start-gateway.js';
import { baseUrlFor, upstreamKey, upstreamModel } from './helpers/upstream-gateway.js';

type Item = Record<string, unknown>;
const anthropicText = { fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' } as const;

// Nothing leaves the machine: the SDK's trace exporter would post to OpenAI.
setTracingDisabled(true);

let upstream: FakeUpstream;
let gateway: TestGateway;
let client: OpenAI;
let runner: Runner;
before(async () => {
  upstream = await startFakeUpstream();
  const config = configSchema.parse({
    ...testConfig,
    providers: [...testConfig.providers, { id: 'anthropic-fake', type: 'anthropic', base_url: baseUrlFor('anthropic', upstream.origin), api_key: upstreamKey }],
    models: [...testConfig.models, { id: 'claude-fake', provider: 'anthropic-fake', upstream_model: upstreamModel }],
  });
  gateway = await startGateway({ config });
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
  runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client as never, useResponses: true }), tracingDisabled: true });
});
after(async () => {
  await gateway?.close();
  await upstream?.close();
});

const routes = [
  { name: 'the built-in model', model: 'builtin/echo', anthropic: false },
  { name: 'an Anthropic upstream', model: 'claude-fake', anthropic: true },
];

/** What the model was given on a turn: the Anthropic upstream's messages, or the built-in model's input items as the gateway stored them. */
async function turnSeenByModel(route: (typeof routes)[number], responseId: string | undefined): Promise<string[]> {
  if (route.anthropic) {
    const sent = upstream.requests.at(-1)!.json as { messages: Array<{ role: string; content: unknown }> };
    return sent.messages.map((message) => `${message.role}: ${textOf(message.content)}`);
  }
  assert.ok(responseId);
  const response = await client.responses.retrieve(responseId);
  const items = (await client.responses.inputItems.list(responseId, { order: 'asc' })).data as unknown as Item[];
  // With `conversation` the input items are the turn's own; the history is the conversation's.
  const conversation = (response as unknown as { conversation?: { id: string } }).conversation;
  const history = conversation ? ((await client.conversations.items.list(conversation.id, { order: 'asc', limit: 100 })).data as unknown as Item[]) : [];
  const seen = conversation ? history.slice(0, history.length - items.length - response.output.length) : [];
  return [...seen, ...items].filter((item) => item.type === 'message').map((item) => `${String(item.role)}: ${textOf(item.content)}`);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Item[]).map((part) => String(part.text ?? '')).join('');
}

for (const route of routes) {
  describe(`the Agents SDK on ${route.name}`, () => {
    const agent = new Agent({ name: 'Assistant', instructions: 'Answer briefly.', model: route.model });

    for (const stream of [false, true]) {
      const mode = stream ? 'streamed' : 'not streamed';
      const turn = async (input: string, options: { session?: OpenAIConversationsSession; conversationId?: string }) => {
        if (route.anthropic) upstream.enqueue(anthropicText);
        if (!stream) return runner.run(agent, input, options);
        const result = await runner.run(agent, input, { ...options, stream: true });
        await result.completed;
        return result;
      };

      test(`OpenAIConversationsSession over two turns (${mode})`, async () => {
        const session = new OpenAIConversationsSession({ client: client as never });
        const first = await turn('My name is Ada.', { session });
        assert.ok(String(first.finalOutput).length > 0);
        const conversationId = await session.getSessionId();
        assert.match(conversationId, /^conv_/);
        const second = await turn('What is my name?', { session });
        assert.ok(String(second.finalOutput).length > 0);

        const seen = await turnSeenByModel(route, second.lastResponseId);
        assert.equal(seen[0], 'user: My name is Ada.', `the second turn carries the first: ${JSON.stringify(seen)}`);
        assert.equal(seen.at(-1), 'user: What is my name?');
        const kept = await session.getItems();
        assert.deepEqual(
          kept.map((item) => (item as Item).role),
          ['user', 'assistant', 'user', 'assistant'],
        );
        // The newest item, as the SDK's popItem takes it (list newest first, then delete by ID).
        const popped = (await session.popItem()) as Item | undefined;
        assert.equal(popped?.role, 'assistant');
        assert.equal((await session.getItems()).length, 3);
        await session.clearSession();
        await assert.rejects(client.conversations.retrieve(conversationId), OpenAI.NotFoundError);
      });

      test(`run with conversationId over two turns: the gateway keeps the history (${mode})`, async () => {
        const { id } = await client.conversations.create({});
        await turn('My name is Ada.', { conversationId: id });
        const second = await turn('What is my name?', { conversationId: id });
        const seen = await turnSeenByModel(route, second.lastResponseId);
        assert.deepEqual(seen.slice(0, 1), ['user: My name is Ada.'], JSON.stringify(seen));
        assert.equal(seen.at(-1), 'user: What is my name?');
        const items = (await client.conversations.items.list(id, { order: 'asc' })).data as unknown as Item[];
        assert.deepEqual(items.map((item) => item.role), ['user', 'assistant', 'user', 'assistant']);
      });
    }
  });
}
