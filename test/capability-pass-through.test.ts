// A key with `capabilities: []` on the pass-through routes: every field that carries a capability in
// each protocol is refused with a 403 naming it, and the fake upstream receives nothing. Issue 23 found
// each of these bodies reaching the upstream with 200. A key that is not narrowed still has its body
// forwarded as it came, fields the gateway does not know included.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ProviderType } from '../server/config/config-schema.js';
import { adminApi } from './helpers/admin-api.js';
import { startUpstreamGateway, tinyPng, type UpstreamGateway } from './helpers/upstream-gateway.js';

const allCapabilities = ['chat', 'streaming', 'tools', 'vision', 'json_schema', 'reasoning'];
const pngData = tinyPng.slice('data:image/png;base64,'.length);

interface Protocol {
  upstream: ProviderType;
  provider?: Record<string, unknown>;
  path: string;
  headers: (key: string) => Record<string, string>;
  base: Record<string, unknown>;
  /** Each body addition and the param the 403 must name. */
  cases: Array<{ name: string; add: Record<string, unknown>; param: string }>;
}

const user = (content: unknown) => ({ role: 'user', content });

const protocols: Record<string, Protocol> = {
  'OpenAI Chat': {
    upstream: 'openai-compatible',
    path: '/v1/chat/completions',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    base: { model: 'test-model', messages: [user('hi')] },
    cases: [
      { name: 'legacy functions', add: { functions: [{ name: 'f', parameters: { type: 'object' } }] }, param: 'functions' },
      { name: 'legacy function_call', add: { function_call: { name: 'f' } }, param: 'function_call' },
      { name: 'web search options', add: { web_search_options: {} }, param: 'web_search_options' },
      { name: 'audio output', add: { modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }, param: 'modalities' },
      { name: 'an unknown field', add: { brand_new_feature: { on: true } }, param: 'brand_new_feature' },
    ],
  },
  'OpenAI Responses': {
    upstream: 'openai',
    provider: { api: 'responses' },
    path: '/v1/responses',
    headers: (key) => ({ authorization: `Bearer ${key}` }),
    base: { model: 'test-model', input: 'hi' },
    cases: [
      { name: 'a function tool', add: { tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }] }, param: 'tools[0].type' },
      { name: 'reasoning', add: { reasoning: { effort: 'high' } }, param: 'reasoning' },
      { name: 'structured output', add: { text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object' } } } }, param: 'text.format' },
      { name: 'a stored prompt', add: { prompt: { id: 'pmpt_1' } }, param: 'prompt' },
      {
        name: 'an image in a function call output',
        add: {
          input: [
            { type: 'function_call', call_id: 'c1', name: 'look', arguments: '{}' },
            { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_image', image_url: tinyPng }] },
          ],
        },
        param: 'input[1].output[0]',
      },
    ],
  },
  'Anthropic Messages': {
    upstream: 'anthropic',
    path: '/v1/messages',
    headers: (key) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' }),
    base: { model: 'test-model', max_tokens: 20, messages: [user('hi')] },
    cases: [
      { name: 'the web search server tool', add: { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, param: 'tools[0].type' },
      { name: 'the bash tool', add: { tools: [{ type: 'bash_20250124', name: 'bash' }] }, param: 'tools[0].type' },
      { name: 'the computer use tool', add: { tools: [{ type: 'computer_20250124', name: 'computer', display_width_px: 800, display_height_px: 600 }] }, param: 'tools[0].type' },
      { name: 'the text editor tool', add: { tools: [{ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }] }, param: 'tools[0].type' },
      { name: 'code execution', add: { tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] }, param: 'tools[0].type' },
      { name: 'MCP servers', add: { mcp_servers: [{ type: 'url', url: 'https://mcp.example.com', name: 'x' }] }, param: 'mcp_servers' },
      {
        name: 'an image inside a tool result',
        add: {
          messages: [
            user('look'),
            { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'shot', input: {} }] },
            user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngData } }] }]),
          ],
        },
        param: 'messages[2].content[0].content[0]',
      },
      { name: 'the beta output_format', add: { output_format: { type: 'json_schema', schema: { type: 'object' } } }, param: 'output_format' },
      { name: 'an unknown field', add: { brand_new_feature: true }, param: 'brand_new_feature' },
    ],
  },
  Gemini: {
    upstream: 'gemini',
    path: '/v1beta/models/test-model:generateContent',
    headers: (key) => ({ 'x-goog-api-key': key }),
    base: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    cases: [
      { name: 'Google Search', add: { tools: [{ googleSearch: {} }] }, param: 'tools[0].googleSearch' },
      { name: 'code execution', add: { tools: [{ codeExecution: {} }] }, param: 'tools[0].codeExecution' },
      // Snake_case is renamed at the front door (http/one-spelling-per-field.ts), so the error names the camelCase field.
      { name: 'google_search in snake_case', add: { tools: [{ google_search: {} }] }, param: 'tools[0].googleSearch' },
      { name: 'thought summaries', add: { generationConfig: { thinkingConfig: { includeThoughts: true } } }, param: 'generationConfig.thinkingConfig.includeThoughts' },
      { name: 'image output', add: { generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }, param: 'generationConfig.responseModalities' },
      { name: 'image output in snake_case', add: { generation_config: { response_modalities: ['IMAGE'] } }, param: 'generationConfig.responseModalities' },
      { name: 'inline_data', add: { contents: [{ role: 'user', parts: [{ inline_data: { mime_type: 'image/png', data: pngData } }] }] }, param: 'contents[0].parts[0].inlineData' },
      { name: 'file_data', add: { contents: [{ role: 'user', parts: [{ file_data: { mime_type: 'image/png', file_uri: 'gs://b/a.png' } }] }] }, param: 'contents[0].parts[0].fileData' },
      {
        name: 'an image inside a function response',
        add: {
          contents: [
            { role: 'user', parts: [{ text: 'look' }] },
            { role: 'model', parts: [{ functionCall: { name: 'shot', args: {} } }] },
            { role: 'user', parts: [{ functionResponse: { name: 'shot', response: {}, parts: [{ inlineData: { mimeType: 'image/png', data: pngData } }] } }] },
          ],
        },
        param: 'contents[2].parts[0].functionResponse.parts[0].inlineData',
      },
      { name: 'cached content', add: { cachedContent: 'cachedContents/abc' }, param: 'cachedContent' },
    ],
  },
};

async function narrowedKey(setup: UpstreamGateway, permissions: Record<string, unknown>): Promise<string> {
  const admin = adminApi(setup.gateway);
  const account = await admin.createAccount({ name: 'narrowed', permissions });
  return (await admin.createKey(account.id, { name: 'k' })).key;
}

for (const [name, protocol] of Object.entries(protocols)) {
  describe(`${name} pass-through, key with capabilities: []`, () => {
    test('every capability-carrying field is refused with a 403 naming it, and the upstream receives nothing', async () => {
      const setup = await startUpstreamGateway(protocol.upstream, { provider: protocol.provider, model: { capabilities: allCapabilities } });
      try {
        const key = await narrowedKey(setup, { capabilities: [] });
        for (const { name: what, add, param } of protocol.cases) {
          const answer = await fetch(`${setup.gateway.origin}${protocol.path}`, {
            method: 'POST',
            headers: { ...protocol.headers(key), 'content-type': 'application/json' },
            body: JSON.stringify({ ...protocol.base, ...add }),
          });
          const text = await answer.text();
          assert.equal(answer.status, 403, `${what}: ${answer.status} ${text}`);
          assert.ok(text.includes(param), `${what}: the error names ${param}: ${text}`);
        }
        assert.equal(setup.upstream.requests.length, 0, 'the upstream received nothing');
      } finally {
        await setup.close();
      }
    });

    test('a key that is not narrowed has the same bodies forwarded as they came', async () => {
      const setup = await startUpstreamGateway(protocol.upstream, { provider: protocol.provider, model: { capabilities: allCapabilities } });
      try {
        const key = await narrowedKey(setup, { models: ['test-model'] });
        const [last] = protocol.cases.slice(-1);
        const body = { ...protocol.base, ...last!.add };
        setup.upstream.enqueue({ status: 500, json: { error: { message: 'enough' } } }, { status: 500, json: { error: { message: 'enough' } } });
        await fetch(`${setup.gateway.origin}${protocol.path}`, { method: 'POST', headers: { ...protocol.headers(key), 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const forwarded = setup.upstream.requests[0]?.json as Record<string, unknown> | undefined;
        assert.ok(forwarded, 'the upstream got the request');
        for (const field of Object.keys(last!.add)) assert.deepEqual(forwarded[field], (body as Record<string, unknown>)[field], `${field} forwarded as it came`);
      } finally {
        await setup.close();
      }
    });
  });
}

test('a key allowed tools may use server tools, and is still refused fields nobody understands', async () => {
  const setup = await startUpstreamGateway('anthropic', { model: { capabilities: allCapabilities } });
  try {
    const key = await narrowedKey(setup, { capabilities: ['tools'] });
    const send = (body: Record<string, unknown>) =>
      fetch(`${setup.gateway.origin}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'test-model', max_tokens: 20, messages: [user('hi')], ...body }),
      });
    setup.upstream.enqueue({ fixture: 'anthropic-messages/non-stream-text.json', protocol: 'anthropic-messages' });
    assert.equal((await send({ tools: [{ type: 'web_search_20250305', name: 'web_search' }] })).status, 200);
    assert.equal((await send({ unheard_of: 1 })).status, 403);
    assert.equal((await send({ thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 2048 })).status, 403, 'reasoning is not among its capabilities');
    assert.equal(setup.upstream.requests.length, 1);
  } finally {
    await setup.close();
  }
});
