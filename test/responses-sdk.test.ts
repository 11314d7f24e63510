// The Responses API through the official `openai` SDK, on the built-in model and on fake upstreams:
// create, stream, previous_response_id state kept by the gateway, retrieve, input items, delete, owners.
// Every stream the SDK reads is also checked frame by frame on the wire (recordResponsesStreams).
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { recordResponsesStreams, terminalResponse } from './helpers/responses-stream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { startUpstreamGateway } from './helpers/upstream-gateway.js';
import { upstreamProfiles } from './helpers/upstream-profiles/index.js';

let gateway: TestGateway;
let client: OpenAI;
const wire = recordResponsesStreams();
before(async () => {
  gateway = await startGateway();
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0, fetch: wire.fetch });
});
after(() => gateway.close());
// A stream a test did not check itself is still checked.
afterEach(() => wire.checked());

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

describe('Responses on the built-in model', () => {
  test('string input gives a completed response with output_text and usage', async () => {
    const response = await client.responses.create({ model: 'builtin/echo', input: 'Hello there' });
    assert.match(response.id, /^resp_/);
    assert.equal(response.status, 'completed');
    assert.match(response.output_text, /Hello there/);
    assert.ok(response.usage && response.usage.input_tokens > 0 && response.usage.output_tokens > 0);
  });

  test('the strict stream helper assembles the same answer', async () => {
    const final = await client.responses.stream({ model: 'builtin/echo', input: [{ role: 'user', content: 'Stream this please' }] }).finalResponse();
    assert.equal(final.status, 'completed');
    assert.match(final.output_text, /Stream this please/);
    const [events, ...more] = await wire.checked();
    assert.equal(more.length, 0);
    assert.equal(terminalResponse(events!).id, final.id);
  });

  test('a function call, then its output through previous_response_id', async () => {
    const first = await client.responses.create({ model: 'builtin/echo', input: 'Weather in Paris?', tools: [weatherTool] });
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call && call.type === 'function_call');
    assert.equal(call.name, 'get_weather');
    const second = await client.responses.create({
      model: 'builtin/echo',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 21}' }],
      tools: [weatherTool],
    });
    assert.match(second.output_text, /21/);
    assert.equal(second.previous_response_id, first.id);
    // Listed as OpenAI lists input items: with a status, although the request sent none.
    const [output] = (await client.responses.inputItems.list(second.id)).data;
    assert.deepEqual(output, { id: output!.id, type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 21}', status: 'completed' });
  });

  test('input items are listed in the shape OpenAI lists them, whatever shape the request gave', async () => {
    const created = await client.responses.create({
      model: 'builtin/echo',
      input: [
        { role: 'user', content: 'What is 6 * 7?' },
        { role: 'assistant', content: 'Let me call the tool.' },
        { type: 'function_call', call_id: 'call_1', name: 'multiply', arguments: '{"a":6,"b":7}' },
        { type: 'function_call_output', call_id: 'call_1', output: '42' },
      ],
    });
    // Every item is checked against OpenAI's published ResponseItemList too (the gateway is watched).
    const items = (await client.responses.inputItems.list(created.id, { order: 'asc' })).data as unknown as Array<Record<string, unknown>>;
    assert.deepEqual(
      items.map((item) => [item.type, item.status]),
      [['message', 'completed'], ['message', 'completed'], ['function_call', 'completed'], ['function_call_output', 'completed']],
    );
    assert.deepEqual(items[1]!.content, [{ type: 'output_text', text: 'Let me call the tool.', annotations: [], logprobs: [] }]);
  });

  test('retrieve, list input items, delete, then 404', async () => {
    const created = await client.responses.create({ model: 'builtin/echo', input: 'Keep me' });
    const retrieved = await client.responses.retrieve(created.id);
    assert.equal(retrieved.id, created.id);
    assert.equal(retrieved.output_text, created.output_text);
    const items = await client.responses.inputItems.list(created.id);
    assert.equal(items.data.length, 1);
    assert.equal(items.data[0]!.type, 'message');
    await client.responses.delete(created.id);
    await assert.rejects(client.responses.retrieve(created.id), OpenAI.NotFoundError);
  });

  test("another account's response is not found, and cannot be built on; another key of the same account sees it", async () => {
    const created = await client.responses.create({ model: 'builtin/echo', input: 'Mine' });
    const admin = (path: string, body: unknown) =>
      fetch(`${gateway.origin}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.json() as Promise<{ id: string; key: string }>);
    const account = await admin('/admin/v1/accounts', { name: 'other' });
    const { key: otherAccountKey } = await admin(`/admin/v1/accounts/${account.id}/keys`, { name: 'other' });
    const other = new OpenAI({ apiKey: otherAccountKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    await assert.rejects(other.responses.retrieve(created.id), OpenAI.NotFoundError);
    await assert.rejects(other.responses.create({ model: 'builtin/echo', input: 'x', previous_response_id: created.id }), OpenAI.NotFoundError);

    const { key: sameAccountKey } = await admin('/admin/v1/keys', { name: 'colleague' });
    const colleague = new OpenAI({ apiKey: sameAccountKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0 });
    assert.equal((await colleague.responses.retrieve(created.id)).id, created.id);
  });

  test('store: false keeps nothing', async () => {
    const created = await client.responses.create({ model: 'builtin/echo', input: 'Forget me', store: false });
    assert.equal((created as unknown as { store: boolean }).store, false);
    await assert.rejects(client.responses.retrieve(created.id), OpenAI.NotFoundError);
  });
});

describe('Responses on a translated upstream', () => {
  test("Anthropic's thinking signature comes back to Anthropic on the next turn", async () => {
    const setup = await startUpstreamGateway('anthropic');
    try {
      const openai = new OpenAI({ apiKey: setup.gateway.apiKey, baseURL: `${setup.gateway.origin}/v1`, maxRetries: 0, fetch: wire.fetch });
      setup.upstream.enqueue({ fixture: 'anthropic-messages/stream-thinking.chunks.txt', protocol: 'anthropic-messages' });
      const first = await openai.responses.stream({ model: 'test-model', input: 'And divided by 5?', reasoning: { effort: 'low' } }).finalResponse();
      const reasoning = first.output.find((item) => item.type === 'reasoning');
      assert.ok(reasoning?.type === 'reasoning' && reasoning.summary.length === 1, 'the thinking arrives as a summary');
      await wire.checked();

      setup.upstream.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' });
      await openai.responses.create({ model: 'test-model', previous_response_id: first.id, input: 'Thanks' });
      const messages = (setup.upstream.requests[1]!.json as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }).messages;
      const thinking = messages[1]!.content.find((block) => block.type === 'thinking');
      assert.equal(thinking?.thinking, reasoning.summary[0]!.text);
      assert.match(String(thinking?.signature), /^EvQBCkYICxgCKkAxhD4N/, 'the signature Anthropic gave, unchanged');
    } finally {
      await setup.close();
    }
  });

  test('previous_response_id sends the whole earlier conversation to an Anthropic upstream', async () => {
    const setup = await startUpstreamGateway('anthropic');
    try {
      const openai = new OpenAI({ apiKey: setup.gateway.apiKey, baseURL: `${setup.gateway.origin}/v1`, maxRetries: 0, fetch: wire.fetch });
      setup.upstream.enqueue({ fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', protocol: 'anthropic-messages' });
      const first = await openai.responses.create({ model: 'test-model', input: 'Weather in SF?', tools: [weatherTool] });
      const call = first.output.find((item) => item.type === 'function_call');
      assert.ok(call && call.type === 'function_call');
      setup.upstream.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' });
      const second = await openai.responses
        .stream({ model: 'test-model', previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }] })
        .finalResponse();
      assert.match(second.output_text, /^Hello!/);
      assert.equal(terminalResponse((await wire.checked())[0]!).id, second.id);
      const messages = (setup.upstream.requests[1]!.json as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> }).messages;
      assert.deepEqual(messages.map((message) => message.role), ['user', 'assistant', 'user']);
      assert.equal(messages[1]!.content.find((block) => block.type === 'tool_use')!.id, call.call_id);
      assert.equal(messages[2]!.content.find((block) => block.type === 'tool_result')!.tool_use_id, call.call_id);
    } finally {
      await setup.close();
    }
  });
});

describe('Responses on every upstream type (translated through the internal representation)', () => {
  /** Asks for the answer plainly and streamed: both complete, and only the streamed one is an event stream. */
  async function plainAndStreamed(setup: { gateway: TestGateway; upstream?: { requests: readonly unknown[] } }) {
    const openai = new OpenAI({ apiKey: setup.gateway.apiKey, baseURL: `${setup.gateway.origin}/v1`, maxRetries: 0, fetch: wire.fetch });
    const plain = await openai.responses.create({ model: 'test-model', input: 'Hello' });
    const streamed = await openai.responses.stream({ model: 'test-model', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }] }).finalResponse();
    for (const response of [plain, streamed]) {
      assert.equal(response.status, 'completed');
      assert.ok(response.usage && response.usage.output_tokens > 0);
    }
    const [events, ...more] = await wire.checked();
    assert.equal(more.length, 0, 'one stream: the plain create is JSON');
    const final = terminalResponse(events!);
    assert.equal(final.id, streamed.id);
    assert.deepEqual(final.output.map((item) => item.id), streamed.output.map((item) => item.id));
    assert.equal(setup.upstream?.requests.length, 2);
    return [plain, streamed];
  }

  for (const profile of upstreamProfiles) {
    const side = profile.upstream;
    test(`string and item input, plain and streamed (${profile.name})`, { skip: side ? false : 'no upstream: the built-in model is tested above' }, async () => {
      if (!side) return;
      const setup = await profile.start();
      try {
        setup.upstream!.enqueue(side.text.stream.reply, side.text.stream.reply);
        for (const response of await plainAndStreamed(setup)) assert.equal(response.output_text, side.text.stream.text);
      } finally {
        await setup.close();
      }
    });
  }

  test("an OpenAI-compatible server's answer after reasoning_content deltas", async () => {
    const setup = await startUpstreamGateway('openai-compatible');
    try {
      const reply = { fixture: 'openai-chat/stream-reasoning-content.chunks.txt', protocol: 'openai-chat' } as const;
      setup.upstream.enqueue(reply, reply);
      for (const response of await plainAndStreamed(setup)) assert.ok(response.output_text.length > 0);
    } finally {
      await setup.close();
    }
  });
});
