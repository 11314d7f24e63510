// Claude Code sends `role: "system"` messages inside `messages` (mid-conversation instructions, with the
// beta header `mid-conversation-system-2026-04-07` in older versions, always in newer ones), plus fields only
// Anthropic reads (`context_management`, `thinking.display`, `defer_loading` on tools). Each upstream type
// gets them the best way it can: Anthropic as they are, OpenAI in place, Gemini and the built-in model
// folded into the instructions.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { configSchema } from '../server/config/config-schema.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { startGateway, type TestGateway } from './helpers/start-gateway.js';
import { upstreamKey } from './helpers/upstream-gateway.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let anthropic: FakeUpstream;
let openai: FakeUpstream;
let compatible: FakeUpstream;
let gemini: FakeUpstream;
let gateway: TestGateway;

before(async () => {
  [anthropic, openai, compatible, gemini] = await Promise.all([startFakeUpstream(), startFakeUpstream(), startFakeUpstream(), startFakeUpstream()]);
  const config = configSchema.parse({
    providers: [
      { id: 'anthropic', type: 'anthropic', base_url: anthropic.origin, api_key: upstreamKey },
      { id: 'openai', type: 'openai', base_url: `${openai.origin}/v1`, api_key: upstreamKey },
      { id: 'vllm', type: 'openai-compatible', base_url: `${compatible.origin}/v1` },
      { id: 'google', type: 'gemini', base_url: gemini.origin, api_key: upstreamKey },
      { id: 'builtin', type: 'builtin', chunk_delay_ms: 0 },
    ],
    models: [
      { id: 'claude', provider: 'anthropic', upstream_model: 'claude-sonnet-4-5', capabilities: ['chat', 'streaming', 'tools', 'reasoning'] },
      { id: 'gpt', provider: 'openai', upstream_model: 'gpt-4.1', capabilities: ['chat', 'streaming', 'tools', 'reasoning'] },
      { id: 'qwen', provider: 'vllm', upstream_model: 'qwen3-coder', capabilities: ['chat', 'streaming', 'tools', 'reasoning'] },
      { id: 'gemini', provider: 'google', upstream_model: 'gemini-2.5-flash', capabilities: ['chat', 'streaming', 'tools', 'reasoning'] },
      { id: 'echo', provider: 'builtin', upstream_model: 'echo', capabilities: ['chat', 'streaming', 'tools', 'reasoning'] },
    ],
    routing: { max_attempts: 1 },
  });
  gateway = await startGateway({ config });
});
after(async () => {
  await gateway.close();
  await Promise.all([anthropic.close(), openai.close(), compatible.close(), gemini.close()]);
});

const beta = 'claude-code-20250219,context-management-2025-06-27,mid-conversation-system-2026-04-07';

/** The shape of a Claude Code turn after a tool round trip (texts cut short), as Claude Code 2.1.332 sends it. */
function claudeCodeTurn(model: string): Body {
  return {
    model,
    max_tokens: 32000,
    stream: true,
    system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Read notes.txt' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: 'notes.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'kiwi' }] },
      { role: 'system', content: [{ type: 'text', text: 'The user switched to plan mode.' }] },
      { role: 'user', content: 'What fruit is it?' },
    ],
    tools: [
      { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } },
      { name: 'Later', description: 'Loaded on search.', input_schema: { type: 'object', properties: {} }, defer_loading: true },
    ],
    metadata: { user_id: '{"device_id":"d1","session_id":"s1"}' },
    thinking: { type: 'enabled', budget_tokens: 31999, display: 'omitted' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  };
}

async function send(body: Body): Promise<Response> {
  return fetch(`${gateway.origin}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': gateway.apiKey, 'anthropic-version': '2023-06-01', 'anthropic-beta': beta },
    body: JSON.stringify(body),
  });
}

const droppedParams = (response: Response) => (response.headers.get('x-gateway-dropped-params') ?? '').split(',').filter(Boolean);

describe('system messages inside messages', () => {
  test('an Anthropic upstream gets them, the other Anthropic-only fields and the anthropic-beta header unchanged', async () => {
    anthropic.enqueue({ fixture: 'anthropic-messages/stream-text.chunks.txt', protocol: 'anthropic-messages' });
    const body = claudeCodeTurn('claude');
    const response = await send(body);
    assert.equal(response.status, 200, await response.clone().text());
    await response.text();
    const sent = anthropic.requests.at(-1)!;
    assert.equal(sent.headers['anthropic-beta'], beta);
    const forwarded = sent.json as Body;
    assert.deepEqual(forwarded.messages, body.messages);
    assert.deepEqual(forwarded.context_management, body.context_management);
    assert.deepEqual(forwarded.thinking, body.thinking);
    assert.equal(forwarded.tools[1].defer_loading, true);
    assert.deepEqual(droppedParams(response), []);
  });

  test('an OpenAI upstream gets each one as a system message in its place; Anthropic-only fields are named as dropped', async () => {
    openai.enqueue({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' });
    const response = await send(claudeCodeTurn('gpt'));
    assert.equal(response.status, 200, await response.clone().text());
    await response.text();
    const sent = openai.requests.at(-1)!.json as Body;
    assert.deepEqual(
      sent.messages.map((message: Body) => message.role),
      ['system', 'user', 'assistant', 'tool', 'system', 'user'],
    );
    assert.equal(sent.messages[0].content, 'You are Claude Code.');
    assert.equal(sent.messages[4].content, 'The user switched to plan mode.');
    assert.deepEqual(droppedParams(response), ['context_management']);
    assert.equal(sent.context_management, undefined);
    assert.deepEqual(sent.tools.map((tool: Body) => tool.function.name), ['Read'], 'a deferred tool is not offered: no tool search here');
  });

  test('an OpenAI-compatible server gets them up front by default, since many chat templates refuse them later', async () => {
    compatible.enqueue({ fixture: 'openai-chat/stream-text-include-usage.chunks.txt', protocol: 'openai-chat' });
    const response = await send(claudeCodeTurn('qwen'));
    assert.equal(response.status, 200, await response.clone().text());
    await response.text();
    const sent = compatible.requests.at(-1)!.json as Body;
    assert.deepEqual(
      sent.messages.map((message: Body) => message.role),
      ['system', 'system', 'user', 'assistant', 'tool', 'user'],
    );
    assert.equal(sent.messages[1].content, 'The user switched to plan mode.');
  });

  test('a Gemini upstream gets them folded into systemInstruction, after the system prompt', async () => {
    gemini.enqueue({ fixture: 'gemini/stream-text.chunks.txt', protocol: 'gemini' });
    const response = await send(claudeCodeTurn('gemini'));
    assert.equal(response.status, 200, await response.clone().text());
    await response.text();
    const sent = gemini.requests.at(-1)!.json as Body;
    assert.deepEqual(sent.systemInstruction.parts.map((part: Body) => part.text), ['You are Claude Code.', 'The user switched to plan mode.']);
    assert.deepEqual(sent.contents.map((content: Body) => content.role), ['user', 'model', 'user']);
    assert.deepEqual(droppedParams(response), ['context_management']);
  });

  test('the built-in model answers the user turn that follows a system message', async () => {
    const response = await send({ ...claudeCodeTurn('echo'), stream: false, tools: undefined, thinking: undefined });
    assert.equal(response.status, 200);
    const message = (await response.json()) as Body;
    assert.equal(message.content[0].text, 'You said: What fruit is it?');
    assert.deepEqual(droppedParams(response), ['context_management']);
  });

  test('a system message with a string content is taken too', async () => {
    const body = { model: 'echo', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }, { role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Again' }] };
    const response = await send(body);
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as Body).content[0].text, 'You said: Again');
  });

  test('a system message holding anything but text is a 400 naming the block, when translated', async () => {
    const body = { model: 'gpt', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }, { role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] }] };
    const response = await send(body);
    assert.equal(response.status, 400);
    const error = (await response.json()) as Body;
    assert.equal(error.type, 'error');
    assert.equal(error.error.message, "messages[1] is a system message, which holds text blocks only, but its content[0] is a 'image' block.");
  });
});
