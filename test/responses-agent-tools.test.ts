// The tool kinds Codex CLI sends in Responses requests besides function tools: a `namespace` of function
// tools (multi_agent_v1), a `custom` tool with free-form input (apply_patch) and hosted tools (web_search).
// Function, namespace and custom tools work on every upstream; hosted tools are forwarded to
// `api: responses` upstreams and dropped (or refused) elsewhere.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { configSchema } from '../server/config/config-schema.js';
import { startFakeUpstream, type FakeUpstream, type SseEvent } from './helpers/fake-upstream.js';
import { recordResponsesStreams } from './helpers/responses-stream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let chat: FakeUpstream;
let responses: FakeUpstream;
let gateway: TestGateway;
let client: OpenAI;
const wire = recordResponsesStreams();

before(async () => {
  [chat, responses] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  const config = configSchema.parse({
    providers: [
      { id: 'chat', type: 'openai-compatible', base_url: `${chat.origin}/v1`, api_key: upstreamKey },
      { id: 'native', type: 'openai', api: 'responses', base_url: `${responses.origin}/v1`, api_key: upstreamKey },
      { id: 'builtin', type: 'builtin', chunk_delay_ms: 0 },
    ],
    models: [
      { id: 'chat-model', provider: 'chat', upstream_model: 'qwen3-coder', capabilities: ['chat', 'streaming', 'tools'] },
      { id: 'strict-model', provider: 'chat', upstream_model: 'qwen3-coder', capabilities: ['chat', 'streaming', 'tools'], on_unsupported: 'reject' },
      { id: 'native-model', provider: 'native', upstream_model: 'gpt-5.5' },
      { id: 'echo', provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming', 'tools'] },
    ],
    routing: { max_attempts: 1 },
  });
  gateway = await startGateway({ config });
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.origin}/v1`, maxRetries: 0, fetch: wire.fetch });
});
after(async () => {
  await gateway.close();
  await Promise.all([chat.close(), responses.close()]);
});

const parameters = (property: string) => ({ type: 'object', properties: { [property]: { type: 'string' } }, required: [property] });

/** Codex CLI 0.169.0's tool list, descriptions cut short (test/fixtures/clients has the recorded one). */
const codexTools = [
  { type: 'function', name: 'exec_command', description: 'Runs a command.', strict: false, parameters: parameters('cmd') },
  {
    type: 'namespace',
    name: 'multi_agent_v1',
    description: 'Tools for sub-agents.',
    tools: [
      { type: 'function', name: 'spawn_agent', description: 'Starts a sub-agent.', strict: false, parameters: parameters('task') },
      { type: 'function', name: 'wait_agent', description: 'Waits for one.', strict: false, parameters: parameters('id') },
    ],
  },
  { type: 'custom', name: 'apply_patch', description: 'Edits files with a patch.', format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch"' } },
  { type: 'web_search', external_web_access: false },
] as unknown as OpenAI.Responses.Tool[];

/** A Chat Completions stream in which the model calls `name` with `args`, split in two deltas. */
function chatToolCall(name: string, args: string): { sse: SseEvent[] } {
  const chunk = (delta: Body, finish: string | null = null, usage?: Body) =>
    ({ data: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'qwen3-coder', choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) }) });
  const half = Math.floor(args.length / 2);
  return {
    sse: [
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }),
      chunk({}, 'tool_calls'),
      chunk({}, null, { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 }),
      { data: '[DONE]' },
    ],
  };
}

const sentTo = (upstream: FakeUpstream) => upstream.requests.at(-1)!.json as Body;
const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch';

describe('Codex tools on an upstream without them', () => {
  test('namespace functions and the custom tool are offered as functions; the hosted tool is dropped and named', async () => {
    chat.enqueue(chatToolCall('exec_command', '{"cmd":"ls"}'));
    const { data, response } = await client.responses.create({ model: 'chat-model', input: 'List files', tools: codexTools }).withResponse();
    const offered = sentTo(chat).tools.map((tool: Body) => tool.function.name);
    assert.deepEqual(offered, ['exec_command', 'multi_agent_v1__spawn_agent', 'multi_agent_v1__wait_agent', 'apply_patch']);
    const applyPatch = sentTo(chat).tools[3].function;
    assert.deepEqual(applyPatch.parameters.required, ['input']);
    assert.match(applyPatch.parameters.properties.input.description, /lark grammar:\nstart: "\*\*\* Begin Patch"/);
    assert.equal(response.headers.get('x-gateway-dropped-params'), 'tools[3]:web_search');
    assert.deepEqual(data.output.map((item) => item.type), ['function_call']);
  });

  test('a call of a namespaced function comes back under the namespace and name the client gave', async () => {
    chat.enqueue(chatToolCall('multi_agent_v1__spawn_agent', '{"task":"review"}'));
    const answer = await client.responses.create({ model: 'chat-model', input: 'Delegate', tools: codexTools });
    const [call] = answer.output as Body[];
    assert.deepEqual({ type: call.type, name: call.name, namespace: call.namespace, arguments: call.arguments }, {
      type: 'function_call',
      name: 'spawn_agent',
      namespace: 'multi_agent_v1',
      arguments: '{"task":"review"}',
    });
  });

  test('streamed: a custom tool call arrives as custom_tool_call with its input events, and goes back as the function it was offered as', async () => {
    chat.enqueue(chatToolCall('apply_patch', JSON.stringify({ input: patch })));
    const stream = client.responses.stream({ model: 'chat-model', input: 'Add hello.txt', tools: codexTools, store: false });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    const call = final.output[0] as Body;
    assert.equal(call.type, 'custom_tool_call');
    assert.match(call.id, /^ctc_[0-9a-f]{48}$/, "OpenAI's prefix for custom tool calls");
    assert.equal(call.name, 'apply_patch');
    assert.equal(call.input, patch);
    assert.ok(types.includes('response.custom_tool_call_input.delta'));
    assert.ok(types.includes('response.custom_tool_call_input.done'));
    assert.ok(!types.includes('response.function_call_arguments.delta'), 'no JSON argument deltas for a custom tool');

    chat.enqueue({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' });
    await client.responses.create({
      model: 'chat-model',
      tools: codexTools,
      input: [
        { role: 'user', content: 'Add hello.txt' },
        { type: 'custom_tool_call', call_id: call.call_id, name: 'apply_patch', input: patch },
        { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Done!' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
      ] as unknown as OpenAI.Responses.ResponseInput,
    });
    const messages = sentTo(chat).messages as Body[];
    const assistant = messages.find((message) => message.role === 'assistant')!;
    assert.deepEqual(assistant.tool_calls[0].function, { name: 'apply_patch', arguments: JSON.stringify({ input: patch }) });
    assert.deepEqual(messages.at(-1), { role: 'tool', tool_call_id: call.call_id, content: 'Done!' });
  });

  test('a namespaced call sent back with its namespace reaches the upstream under the name it was offered as', async () => {
    chat.enqueue({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' });
    await client.responses.create({
      model: 'chat-model',
      tools: codexTools,
      input: [
        { role: 'user', content: 'Delegate' },
        { type: 'function_call', call_id: 'call_9', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{"task":"review"}' },
        { type: 'function_call_output', call_id: 'call_9', output: 'agent-1' },
      ] as unknown as OpenAI.Responses.ResponseInput,
    });
    const assistant = (sentTo(chat).messages as Body[]).find((message) => message.role === 'assistant')!;
    assert.equal(assistant.tool_calls[0].function.name, 'multi_agent_v1__spawn_agent');
  });

  test('the built-in model calls a custom tool with free-form input', async () => {
    const answer = await client.responses.create({ model: 'echo', input: 'patch it', tools: [codexTools[2]!], tool_choice: { type: 'custom', name: 'apply_patch' } });
    const call = answer.output[0] as Body;
    assert.equal(call.type, 'custom_tool_call');
    assert.equal(typeof call.input, 'string');
  });

  test("a hosted tool is refused with a 400 naming its type when the model says on_unsupported: reject", async () => {
    await assert.rejects(client.responses.create({ model: 'strict-model', input: 'Search', tools: codexTools }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.BadRequestError);
      assert.match(error.message, /hosted tool of type 'web_search' \(tools\[3\]\) runs only on OpenAI's Responses API/);
      assert.equal((error.error as Body).param, 'tools[3].type');
      return true;
    });
    assert.equal(chat.requests.filter((request) => (request.json as Body).model === 'qwen3-coder').length, chat.requests.length, 'nothing new sent');
  });
});

describe('Codex tools on an api: responses upstream', () => {
  test('every tool goes through as the client sent it', async () => {
    responses.enqueue({ fixture: 'openai-responses/stream-text-after-tool-output.chunks.txt', protocol: 'openai-responses' });
    const stream = client.responses.stream({ model: 'native-model', input: 'Hi', tools: codexTools });
    for await (const _event of stream) void _event;
    assert.deepEqual(sentTo(responses).tools, codexTools);
  });
});

describe('a tool the contract does not know', () => {
  test('is a 400 that names the tool, not just its index', async () => {
    const response = await fetch(`${gateway.origin}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'echo', input: 'Hi', tools: [codexTools[0], { type: 'teleport', name: 'beam_me_up' }] }),
    });
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as Body;
    assert.match(error.message, /\(tools\[1\] is \{type: 'teleport', name: 'beam_me_up'\}\)/);
  });
});
