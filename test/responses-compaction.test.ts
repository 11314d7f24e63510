// Compaction on every upstream: `POST /v1/responses/compact` and the `compaction_trigger` input item
// (https://platform.openai.com/docs/api-reference/responses/compact; the item shapes are OpenAI's published
// spec, test/fixtures/openai-spec: CompactionTriggerItemParam, CompactionBody, CompactResource). An
// `api: responses` upstream gets them as they are; for the others the gateway summarizes with the same
// model and seals the summary, bound to the account. The Anthropic fake answers as the Messages API's
// streaming reference describes (https://docs.anthropic.com/en/api/messages-streaming).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { configSchema } from '../server/config/config-schema.js';
import { defaultConfig } from '../server/config/default-config.js';
import { summarizingInstruction } from '../server/protocols/openai-responses/compaction-request.js';
import { keyOfNewAccount } from './helpers/admin-api.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from './helpers/fake-upstream.js';
import { ledgerRow } from './helpers/ledger-row.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

type Item = Record<string, unknown>;

let openaiUpstream: FakeUpstream;
let anthropicUpstream: FakeUpstream;
let gateway: TestGateway;

before(async () => {
  [openaiUpstream, anthropicUpstream] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = configSchema.parse({
    providers: [
      { id: 'builtin', type: 'builtin', chunk_delay_ms: 0 },
      { id: 'openai-native', type: 'openai', api: 'responses', base_url: `${openaiUpstream.origin}/v1`, api_key: upstreamKey },
      { id: 'claude', type: 'anthropic', base_url: anthropicUpstream.origin, api_key: 'sk-ant-other' },
    ],
    models: [
      ...defaultConfig.models.filter((model) => model.id === 'builtin/echo'),
      { id: 'gpt-native', provider: 'openai-native', upstream_model: 'gpt-5.5' },
      { id: 'claude-model', provider: 'claude', upstream_model: 'claude-sonnet-4-5' },
    ],
    routing: { backoff_ms: 0 },
  });
  gateway = await startGateway({ config });
});
after(async () => {
  await gateway.close();
  await Promise.all([openaiUpstream.close(), anthropicUpstream.close()]);
});

/** A Messages stream answering `text`, as Anthropic sends one. */
function anthropicText(text: string): FakeReply {
  const event = (type: string, data: object) => ({ event: type, data: JSON.stringify({ type, ...data }) });
  const usage = { input_tokens: 40, output_tokens: 12 };
  return {
    sse: [
      event('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage } }),
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
      event('content_block_stop', { index: 0 }),
      event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 12 } }),
      event('message_stop', {}),
    ],
  };
}

async function post(path: string, body: unknown, key = gateway.apiKey): Promise<Response> {
  return fetch(`${gateway.origin}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The data of every frame of a streamed answer. */
async function frames(response: Response): Promise<Item[]> {
  assert.equal(response.status, 200);
  return (await response.text()).trim().split('\n\n').map((frame) => JSON.parse(frame.split('\n').find((line) => line.startsWith('data: '))!.slice(6)) as Item);
}

const conversation = [
  { role: 'user', content: 'Build a landing page for a dog cafe.' },
  { role: 'assistant', content: [{ type: 'output_text', text: 'Started index.html with a hero section.' }] },
];
const lastAnthropicBody = () => anthropicUpstream.requests.at(-1)!.json as { messages: Array<{ role: string; content: unknown }>; tool_choice?: unknown };

describe('compaction on an upstream without its own (Anthropic)', () => {
  let sealed: Item;

  test('a compaction_trigger answers one sealed compaction item, made by the same model from the conversation', async () => {
    anthropicUpstream.enqueue(anthropicText('SUMMARY: hero section done; next the menu.'));
    const response = await post('/responses', { model: 'claude-model', input: [...conversation, { type: 'compaction_trigger' }] });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { status: string; output: Item[]; usage: { output_tokens: number } };
    assert.equal(body.status, 'completed');
    assert.equal(body.output.length, 1);
    assert.equal(body.output[0]!.type, 'compaction');
    assert.match(body.output[0]!.encrypted_content as string, /^gw1\.[A-Za-z0-9_-]+$/);
    assert.ok(!(body.output[0]!.encrypted_content as string).includes('SUMMARY'), 'the summary is not readable in the item');
    assert.equal(body.usage.output_tokens, 12);
    const asked = JSON.stringify(lastAnthropicBody().messages.at(-1));
    assert.ok(asked.includes('CONTEXT CHECKPOINT COMPACTION'), 'the summarizing instruction is the last user turn');
    assert.ok(JSON.stringify(lastAnthropicBody().messages).includes('dog cafe'));
    sealed = body.output[0]!;
  });

  test('the sealed item sent back stands in the conversation as its summary; the blob never reaches the upstream', async () => {
    anthropicUpstream.enqueue(anthropicText('Adding the menu.'));
    const response = await post('/responses', { model: 'claude-model', input: [sealed, { role: 'user', content: 'Carry on.' }] });
    assert.equal(response.status, 200);
    const sent = JSON.stringify(lastAnthropicBody().messages);
    assert.ok(sent.includes('SUMMARY: hero section done; next the menu.'), sent);
    assert.ok(!sent.includes('gw1.'), 'the sealed blob is not sent on');
  });

  test('streamed: response.created at once, then exactly one compaction item, then response.completed', async () => {
    anthropicUpstream.enqueue(anthropicText('SUMMARY streamed.'));
    const events = await frames(await post('/responses', { model: 'claude-model', stream: true, input: [...conversation, { type: 'compaction_trigger' }] }));
    assert.deepEqual(
      events.map((event) => event.type),
      ['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed'],
    );
    const done = events.filter((event) => event.type === 'response.output_item.done');
    assert.equal((done[0]!.item as Item).type, 'compaction');
    const completed = events.at(-1)!.response as { output: Item[] };
    assert.deepEqual(completed.output, [done[0]!.item]);
    assert.deepEqual(events.map((event) => event.sequence_number), [0, 1, 2, 3, 4]);
  });

  test('POST /v1/responses/compact keeps the user messages and adds one sealed compaction item; metered as a model call', async () => {
    anthropicUpstream.enqueue(anthropicText('SUMMARY compact endpoint.'));
    const response = await post('/responses/compact', { model: 'claude-model', input: conversation });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { object: string; output: Item[]; usage: { input_tokens: number } };
    assert.equal(body.object, 'response.compaction');
    assert.deepEqual(body.output[0], conversation[0]);
    assert.equal(body.output.length, 2);
    assert.equal(body.output[1]!.type, 'compaction');
    assert.equal(response.headers.get('x-gateway-provider'), 'claude');
    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.equal(row.model, 'claude-model');
    assert.equal(row.input_tokens, 40);
    assert.equal(row.output_tokens, 12);
  });

  test("another account's sealed item is refused (400, OpenAI's error shape), and so is an altered one", async () => {
    const otherKey = await keyOfNewAccount(gateway, {});
    const before = anthropicUpstream.requests.length;
    const foreign = await post('/responses', { model: 'claude-model', input: [sealed, { role: 'user', content: 'Go on.' }] }, otherKey);
    assert.equal(foreign.status, 400);
    const error = ((await foreign.json()) as { error: { type: string; param: string; message: string } }).error;
    assert.equal(error.type, 'invalid_request_error');
    assert.equal(error.param, 'input[0].encrypted_content');

    const content = sealed.encrypted_content as string;
    const flipped = content.slice(0, -2) + (content.at(-2) === 'A' ? 'B' : 'A') + content.at(-1);
    const altered = await post('/responses', { model: 'claude-model', input: [{ ...sealed, encrypted_content: flipped }, { role: 'user', content: 'Go on.' }] });
    assert.equal(altered.status, 400);
    assert.equal(((await altered.json()) as { error: { param: string } }).error.param, 'input[0].encrypted_content');
    assert.equal(anthropicUpstream.requests.length, before, 'nothing reached the upstream');
  });

  test("an upstream's own compaction blob is never sent to another provider: 400 naming the item", async () => {
    const before = anthropicUpstream.requests.length;
    const blob = { type: 'compaction', id: 'cmp_001', encrypted_content: 'gAAAAABpM0Yj-openai-blob=' };
    const response = await post('/responses', { model: 'claude-model', input: [blob, { role: 'user', content: 'Go on.' }] });
    assert.equal(response.status, 400);
    const error = ((await response.json()) as { error: { param: string; message: string } }).error;
    assert.equal(error.param, 'input[0]');
    assert.equal(anthropicUpstream.requests.length, before, 'the blob never reached Anthropic');
  });
});

describe('compaction on the built-in model', () => {
  test('compact and trigger both answer a sealed item, which opens again for the same account', async () => {
    const compacted = await post('/responses/compact', { model: 'builtin/echo', input: 'Remember the number 4711.' });
    assert.equal(compacted.status, 200);
    const { output } = (await compacted.json()) as { output: Item[] };
    const item = output.at(-1)!;
    assert.equal(item.type, 'compaction');

    const triggered = await frames(await post('/responses', { model: 'builtin/echo', stream: true, input: [item, { role: 'user', content: 'What now?' }, { type: 'compaction_trigger' }] }));
    const done = triggered.filter((event) => event.type === 'response.output_item.done');
    assert.equal(done.length, 1);
    assert.equal((done[0]!.item as Item).type, 'compaction');

    const next = await post('/responses', { model: 'builtin/echo', input: [done[0]!.item, { role: 'user', content: 'Continue.' }] });
    assert.equal(next.status, 200);
  });

  test("a key whose permissions narrow requests compacts: the scan sees the client's body, with no item it did not send", async () => {
    const narrowed = await keyOfNewAccount(gateway, { permissions: { capabilities: ['chat'] } });
    const compacted = await post('/responses/compact', { model: 'builtin/echo', input: 'Remember the number 4711.' }, narrowed);
    assert.equal(compacted.status, 200, await compacted.clone().text());
    assert.equal(((await compacted.json()) as { output: Item[] }).output.at(-1)!.type, 'compaction');
  });

  test('a key whose permissions narrow requests compacts with a compaction_trigger too (Codex 0.171 sends one)', async () => {
    // The Responses scan had no entry for the item, so such a key got 403 naming input[1].type.
    const narrowed = await keyOfNewAccount(gateway, { permissions: { capabilities: ['chat'] } });
    const triggered = await post('/responses', { model: 'builtin/echo', input: [{ role: 'user', content: 'Remember 4711.' }, { type: 'compaction_trigger' }] }, narrowed);
    assert.equal(triggered.status, 200, await triggered.clone().text());
    assert.deepEqual(((await triggered.json()) as { output: Item[] }).output.map((item) => item.type), ['compaction']);
  });

  test('a conversation that ends in its opened summary is answered in text, not with the tool call again', async () => {
    // As Codex sends it after compacting mid-turn: its user messages, then the compaction item, tools offered.
    // Calling the tool again, the built-in model made Codex compact and call for ever.
    const tools = [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } }];
    const history = [{ role: 'user', content: 'Read notes.txt.' }, { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"cat notes.txt"}' }, { type: 'function_call_output', call_id: 'call_1', output: 'PAPAYA' }];
    const compacted = (await (await post('/responses', { model: 'builtin/echo', tools, input: [...history, { type: 'compaction_trigger' }] })).json()) as { output: Item[] };
    const next = await post('/responses', { model: 'builtin/echo', tools, input: [history[0], compacted.output[0]] });
    const { output } = (await next.json()) as { output: Array<{ type: string; content?: Array<{ text: string }> }> };
    assert.deepEqual(output.map((item) => item.type), ['message']);
    assert.match(output[0]!.content![0]!.text, /compacted into the summary below[\s\S]*Tool exec_command returned: PAPAYA/);
  });
});

describe('compaction on an api: responses upstream', () => {
  test('the compaction_trigger and an upstream blob are forwarded untouched', async () => {
    const compaction = { type: 'compaction', id: 'cmp_9', encrypted_content: 'gAAAAAB-upstream' };
    openaiUpstream.enqueue({
      json: {
        id: 'resp_up', object: 'response', created_at: 1, status: 'completed', model: 'gpt-5.5', error: null, incomplete_details: null,
        instructions: null, tools: [], parallel_tool_calls: true, metadata: {}, tool_choice: 'auto', temperature: 1, top_p: 1,
        output: [compaction], usage: { input_tokens: 5, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 8 },
      },
    });
    const input = [{ type: 'compaction', encrypted_content: 'gAAAAAB-earlier' }, { role: 'user', content: 'hi' }, { type: 'compaction_trigger' }];
    const response = await post('/responses', { model: 'gpt-native', input });
    assert.equal(response.status, 200);
    const request = openaiUpstream.requests.at(-1)!;
    assert.equal(request.url, '/v1/responses');
    assert.deepEqual((request.json as { input: unknown }).input, input);
    assert.deepEqual(((await response.json()) as { output: Item[] }).output, [compaction]);
  });

  test('POST /v1/responses/compact goes to the upstream /responses/compact', async () => {
    const answer = {
      id: 'resp_001', object: 'response.compaction', created_at: 1764967971,
      output: [{ id: 'msg_000', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, { id: 'cmp_001', type: 'compaction', encrypted_content: 'gAAAAABpM0Yj-...=' }],
      usage: { input_tokens: 139, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 438, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 577 },
    };
    openaiUpstream.enqueue({ json: answer });
    const response = await post('/responses/compact', { model: 'gpt-native', input: [{ role: 'user', content: 'hi' }] });
    assert.equal(response.status, 200);
    const request = openaiUpstream.requests.at(-1)!;
    assert.equal(request.url, '/v1/responses/compact');
    assert.deepEqual(request.json, { model: 'gpt-5.5', input: [{ role: 'user', content: 'hi' }] });
    assert.deepEqual(await response.json(), answer);
    const row = await ledgerRow(gateway.origin, gateway.apiKey, response.headers.get('x-request-id')!);
    assert.equal(row.output_tokens, 438);
  });
});

test('the summarizing instruction is Codex’s compaction prompt', () => {
  assert.ok(summarizingInstruction.startsWith('You are performing a CONTEXT CHECKPOINT COMPACTION.'));
});
