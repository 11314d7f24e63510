// Responses API clients on an `api: responses` OpenAI upstream: the body is forwarded, the upstream's
// recorded stream comes back frame by frame, and the gateway keeps the conversation so that
// `previous_response_id` works whether or not the upstream holds the previous turn.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { recordResponsesStreams } from './helpers/responses-stream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { fixtureSseEvents } from './helpers/upstream-fixtures.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

type Item = Record<string, unknown>;
interface UpstreamBody {
  model: string;
  input: string | Item[];
  previous_response_id?: string;
  tools?: unknown;
  store?: boolean;
}

let openaiUpstream: FakeUpstream;
let anthropicUpstream: FakeUpstream;
let gateway: TestGateway;
let client: OpenAI;
const wire = recordResponsesStreams();

before(async () => {
  [openaiUpstream, anthropicUpstream] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = configSchema.parse({
    providers: [
      { id: 'openai-native', type: 'openai', api: 'responses', base_url: `${openaiUpstream.origin}/v1`, api_key: upstreamKey },
      { id: 'claude', type: 'anthropic', base_url: anthropicUpstream.origin, api_key: 'sk-ant-other' },
    ],
    models: [
      { id: 'gpt-native', provider: 'openai-native', upstream_model: 'gpt-5.5' },
      { id: 'gpt-no-tools', provider: 'openai-native', upstream_model: 'gpt-5.5', capabilities: ['chat', 'streaming'] },
      { id: 'claude-model', provider: 'claude', upstream_model: 'claude-sonnet-4-5' },
    ],
    routing: { backoff_ms: 0 },
  });
  gateway = await startGateway({ config });
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0, fetch: wire.fetch });
});
after(async () => {
  await gateway.close();
  await Promise.all([openaiUpstream.close(), anthropicUpstream.close()]);
});

/** A raw streamed call: the data of every frame, for streams the strict checks in responses-stream.ts would refuse. */
async function streamFrames(body: Record<string, unknown>): Promise<Item[]> {
  const response = await fetch(`${gateway.origin}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  return (await response.text()).trim().split('\n\n').map((frame) => JSON.parse(frame.split('\n')[1]!.slice(6)) as Item);
}

const lastBody = (upstream: FakeUpstream) => upstream.requests.at(-1)!.json as UpstreamBody;
const multiply: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'multiply',
  description: 'Multiply two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
  strict: false,
};

describe('an api: responses upstream', () => {
  test("forwards the client's body to /v1/responses and stores the upstream's response", async () => {
    openaiUpstream.enqueue({ fixture: 'openai-responses/non-stream-text.json', protocol: 'openai-responses' });
    const { data: response, response: http } = await client.responses
      .create({ model: 'gpt-native', input: 'Say pong', metadata: { trace: 't1' }, include: ['reasoning.encrypted_content'] })
      .withResponse();

    const request = openaiUpstream.requests.at(-1)!;
    assert.equal(request.url, '/v1/responses');
    assert.equal(request.headers.authorization, `Bearer ${upstreamKey}`);
    assert.deepEqual(request.json, { model: 'gpt-5.5', input: 'Say pong', metadata: { trace: 't1' }, include: ['reasoning.encrypted_content'] });
    assert.equal(http.headers.get('x-gateway-provider'), 'openai-native');
    assert.match(response.id, /^resp_[0-9a-f]+$/);
    assert.ok(!response.id.startsWith('resp_08ddf351'), "the gateway's ID, not the upstream's");
    assert.equal(response.output_text, 'pong');

    const retrieved = await client.responses.retrieve(response.id);
    assert.equal(retrieved.output_text, 'pong');
    const items = await client.responses.inputItems.list(response.id);
    assert.deepEqual(
      items.data.map((item) => item.type === 'message' && item.content),
      [[{ type: 'input_text', text: 'Say pong' }]],
    );
  });

  test('streams the recorded events through, and sends previous_response_id on to the upstream that holds it', async () => {
    openaiUpstream.enqueue({ fixture: 'openai-responses/stream-function-call.chunks.txt', protocol: 'openai-responses' });
    const first = await client.responses.stream({ model: 'gpt-native', input: 'What is 1231 * 2331?', tools: [multiply] }).finalResponse();
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call?.type === 'function_call');
    assert.deepEqual(JSON.parse(call.arguments), { a: 1231, b: 2331 });
    const [events] = await wire.checked();
    const recorded = fixtureSseEvents('openai-responses/stream-function-call.chunks.txt', 'openai-responses').map((event) => JSON.parse(event.data) as Item);
    const upstreamId = (recorded[0]!.response as Item).id as string;
    // The recording predates `cache_write_tokens` and ends the call without its `name`, both of which OpenAI's
    // published spec requires: the gateway fills them in.
    const completed = (response: Item) => {
      const usage = response.usage as { input_tokens_details: Item } | null;
      return usage ? { ...response, usage: { ...usage, input_tokens_details: { ...usage.input_tokens_details, cache_write_tokens: 0 } } } : response;
    };
    const asForwarded = (event: Item) => {
      if ('response' in event) return { ...event, response: { ...completed(event.response as Item), id: first.id } };
      return event.type === 'response.function_call_arguments.done' ? { ...event, name: 'multiply' } : event;
    };
    assert.deepEqual(events, recorded.map(asForwarded), "every recorded event, under the gateway's response ID and completed");

    openaiUpstream.enqueue({ fixture: 'openai-responses/stream-text-after-tool-output.chunks.txt', protocol: 'openai-responses' });
    const second = await client.responses
      .stream({ model: 'gpt-native', previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: '2869461' }] })
      .finalResponse();
    assert.match(second.output_text, /2,?869,?461/);
    await wire.checked();
    const body = lastBody(openaiUpstream);
    assert.equal(body.previous_response_id, upstreamId, "the upstream holds the first turn, under its own ID");
    assert.deepEqual(body.input, [{ type: 'function_call_output', call_id: call.call_id, output: '2869461' }]);
  });

  test('sends the whole conversation when the previous turn ran on another upstream', async () => {
    anthropicUpstream.enqueue({ fixture: 'anthropic-messages/stream-tool-use-input-json-delta.chunks.txt', protocol: 'anthropic-messages' });
    const first = await client.responses.create({ model: 'claude-model', instructions: 'Be brief.', input: 'Weather in SF?', tools: [multiply] });
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call?.type === 'function_call');

    openaiUpstream.enqueue({ fixture: 'openai-responses/non-stream-text.json', protocol: 'openai-responses' });
    const second = await client.responses.create({
      model: 'gpt-native',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sunny' }],
    });
    assert.equal(second.previous_response_id, first.id, "the client sees its own previous_response_id, not the upstream's null");

    const body = lastBody(openaiUpstream);
    assert.equal('previous_response_id' in body, false, 'the upstream never saw the first turn');
    const input = body.input as Item[];
    assert.deepEqual(input[0], { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in SF?' }] });
    assert.ok(input.every((item) => !('id' in item)), 'no gateway or Anthropic item IDs reach OpenAI');
    const replayed = first.output.filter((item) => item.type !== 'reasoning').map((item) => item.type);
    assert.deepEqual(input.map((item) => item.type), ['message', ...replayed, 'function_call_output']);
    assert.deepEqual(input.at(-2), { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments, status: 'completed' });
    assert.deepEqual(input.at(-1), { type: 'function_call_output', call_id: call.call_id, output: 'sunny' });
  });

  test('an item_reference to a turn another upstream answered reaches OpenAI as the item itself', async () => {
    anthropicUpstream.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' });
    const first = await client.responses.create({ model: 'claude-model', input: 'Hello' });
    const message = first.output.find((item) => item.type === 'message');
    assert.ok(message?.type === 'message');

    openaiUpstream.enqueue({ fixture: 'openai-responses/non-stream-text.json', protocol: 'openai-responses' });
    // What the AI SDK sends with `store` on: earlier items by reference, no previous_response_id.
    await client.responses.create({
      model: 'gpt-native',
      input: [{ role: 'user', content: 'Hello' }, { type: 'item_reference', id: message.id }, { role: 'user', content: 'And now?' }],
    });
    const body = lastBody(openaiUpstream);
    assert.deepEqual(body.input, [
      { role: 'user', content: 'Hello' },
      { type: 'message', role: 'assistant', status: 'completed', content: message.content },
      { role: 'user', content: 'And now?' },
    ]);
  });

  test('drops what the model cannot take and names it in x-gateway-dropped-params', async () => {
    openaiUpstream.enqueue({ fixture: 'openai-responses/non-stream-text.json', protocol: 'openai-responses' });
    const { response: http } = await client.responses.create({ model: 'gpt-no-tools', input: 'Hi', tools: [multiply], tool_choice: 'auto' }).withResponse();
    assert.equal(http.headers.get('x-gateway-dropped-params'), 'tools, tool_choice');
    const body = lastBody(openaiUpstream);
    assert.equal('tools' in body || 'tool_choice' in body, false);
  });

  test('a call the upstream refuses in-band before answering is retried, unseen by the client', async () => {
    openaiUpstream.enqueue(
      { fixture: 'openai-responses/stream-error-insufficient-quota.chunks.txt', protocol: 'openai-responses' },
      { fixture: 'openai-responses/stream-text-after-tool-output.chunks.txt', protocol: 'openai-responses' },
    );
    const before = openaiUpstream.requests.length;
    const final = await client.responses.stream({ model: 'gpt-native', input: 'Hi', store: false }).finalResponse();
    assert.equal(final.status, 'completed');
    assert.equal(openaiUpstream.requests.length - before, 2);
    const [events] = await wire.checked();
    assert.equal(events!.filter((event) => event.type === 'response.created').length, 1);
  });

  test("an upstream's in-band error mid-answer reaches the client in both the nested and the flat form", async () => {
    const answer = fixtureSseEvents('openai-responses/stream-function-call.chunks.txt', 'openai-responses').slice(0, 4);
    const [, , error, failed] = fixtureSseEvents('openai-responses/stream-error-insufficient-quota.chunks.txt', 'openai-responses');
    openaiUpstream.enqueue({ sse: [...answer, error!, failed!] });
    const frames = await streamFrames({ model: 'gpt-native', input: 'Hi', stream: true });
    const sent = frames.find((frame) => frame.type === 'error')!;
    const nested = sent.error as Item;
    assert.equal(nested.code, 'insufficient_quota');
    assert.deepEqual({ code: sent.code, message: sent.message, param: sent.param }, { code: nested.code, message: nested.message, param: nested.param });
    assert.equal(frames.at(-1)!.type, 'response.failed');
  });

  test('an upstream that breaks off mid-answer ends the stream with error and response.failed', async () => {
    const recorded = fixtureSseEvents('openai-responses/stream-function-call.chunks.txt', 'openai-responses');
    openaiUpstream.enqueue({ sse: recorded.slice(0, 6) });
    const frames = await streamFrames({ model: 'gpt-native', input: 'Hi', stream: true });
    assert.deepEqual(frames.map((frame) => frame.sequence_number), frames.map((_, index) => index));
    assert.deepEqual(frames.slice(-2).map((frame) => frame.type), ['error', 'response.failed']);
    const failed = frames.at(-1)!.response as Item;
    assert.equal(failed.status, 'failed');
    assert.match(String((failed.error as Item).message), /ended before the answer was complete/);
  });
});

describe('the Vercel AI SDK on an api: responses upstream', () => {
  const model = () => createOpenAI({ baseURL: `${gateway.origin}/v1`, apiKey: gateway.apiKey, fetch: wire.fetch }).responses('gpt-native');

  test('generateText gets the upstream answer and usage', async () => {
    openaiUpstream.enqueue({ fixture: 'openai-responses/non-stream-text.json', protocol: 'openai-responses' });
    const result = await generateText({ maxRetries: 0, model: model(), prompt: 'Say pong' });
    assert.equal(result.text, 'pong');
    assert.equal(result.finishReason, 'stop');
    assert.ok((result.usage.inputTokens ?? 0) > 0 && (result.usage.outputTokens ?? 0) > 0);
  });

  test('streamText parses the forwarded function call', async () => {
    openaiUpstream.enqueue({ fixture: 'openai-responses/stream-function-call.chunks.txt', protocol: 'openai-responses' });
    const result = streamText({
      maxRetries: 0,
      model: model(),
      prompt: 'What is 1231 * 2331?',
      tools: { multiply: tool({ description: 'Multiply two numbers.', inputSchema: jsonSchema<{ a: number; b: number }>(multiply.parameters!) }) },
    });
    await result.consumeStream();
    const [call] = await result.toolCalls;
    assert.equal(call?.toolName, 'multiply');
    assert.deepEqual(call?.input, { a: 1231, b: 2331 });
    assert.equal(await result.finishReason, 'tool-calls');
    assert.deepEqual(await result.usage.then((usage) => [usage.inputTokens, usage.outputTokens]), [58, 23]);
    await wire.checked();
  });
});
