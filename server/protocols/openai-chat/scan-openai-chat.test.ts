import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { junkBodies, recordedRequests, specExamples, specFields, usesOf } from '../../../test/helpers/wire-scan-support.js';
import { scanWireBody } from '../../access/wire-scan/wire-scan.js';
import { openAIChatWireScanner } from './scan-openai-chat.js';

const base = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };
const scan = (fields: Record<string, unknown>) => scanWireBody(openAIChatWireScanner, { ...base, ...fields });

/** What the Vercel AI SDK, LangChain and opencode send: every ordinary field at once. */
const ordinaryBody = {
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'developer', content: [{ type: 'text', text: 'Answer in English.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"temp":20}' },
    { role: 'assistant', content: 'It is 20°C.', refusal: null, reasoning_content: 'Read the tool.' },
  ],
  stream: true,
  stream_options: { include_usage: true },
  temperature: 0.7,
  top_p: 1,
  n: 1,
  stop: ['END'],
  presence_penalty: 0,
  frequency_penalty: 0,
  logit_bias: { '50256': -100 },
  logprobs: false,
  top_logprobs: null,
  seed: 7,
  user: 'u-1',
  safety_identifier: 'u-1',
  metadata: { ticket: 'T-1' },
  store: false,
  service_tier: 'auto',
  prompt_cache_key: 'session-1',
  prompt_cache_retention: '24h',
  verbosity: 'low',
  parallel_tool_calls: true,
  response_format: { type: 'json_object' },
};

describe('scanWireBody openai-chat', () => {
  it('finds nothing unknown in the spec examples, the recorded requests and an ordinary SDK body', () => {
    const bodies = [...specExamples('ChatCompletionRequest'), ...recordedRequests('openai-chat'), ['ordinary', ordinaryBody] as [string, unknown]];
    for (const [name, body] of bodies) assert.deepEqual(scanWireBody(openAIChatWireScanner, body).unknown, [], name);
    assert.deepEqual(scanWireBody(openAIChatWireScanner, ordinaryBody).uses, []);
  });

  it('classifies every field the spec names', () => {
    const fields = specFields('ChatCompletionRequest');
    assert.ok(fields.length > 20);
    for (const field of fields) assert.deepEqual(scanWireBody(openAIChatWireScanner, { [field]: true }).unknown, [], field);
  });

  it('gates the legacy functions and function_call', () => {
    const definition = { name: 'weather', parameters: { type: 'object' } };
    assert.deepEqual(usesOf(scan({ functions: [definition, definition] })), ['tools functions[0]', 'tools functions[1]']);
    assert.deepEqual(usesOf(scan({ function_call: { name: 'weather' } })), ['tools function_call']);
    assert.deepEqual(usesOf(scan({ function_call: 'none', functions: [] })), []);
  });

  it('asks for tools for every tool, and when a tool choice forces one', () => {
    const tools = [
      { type: 'function', function: { name: 'f', parameters: {} } },
      { type: 'custom', custom: { name: 'patch' } },
    ];
    assert.deepEqual(usesOf(scan({ tools, tool_choice: 'auto' })), ['tools tools[0].type', 'tools tools[1].type']);
    assert.deepEqual(usesOf(scan({ tool_choice: 'required' })), ['tools tool_choice']);
    assert.deepEqual(usesOf(scan({ tool_choice: { type: 'function', function: { name: 'f' } } })), ['tools tool_choice']);
    assert.deepEqual(usesOf(scan({ tools: [], tool_choice: 'none' })), []);
  });

  it('asks for vision for images, files and audio input in any message', () => {
    const body = scan({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'x' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,AA==' } },
            { type: 'input_audio', input_audio: { data: 'AA==', format: 'wav' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c', content: [{ type: 'image_url', image_url: { url: 'https://example.com/b.png' } }] },
      ],
    });
    assert.deepEqual(usesOf(body), ['vision messages[1].content[1]', 'vision messages[1].content[2]', 'vision messages[1].content[3]', 'vision messages[2].content[0]']);
  });

  it('asks for json_schema for a schema response format only, and reasoning for reasoning_effort', () => {
    const schema = { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object', properties: { type: { type: 'string' } } } } };
    assert.deepEqual(usesOf(scan({ response_format: schema })), ['json_schema response_format']);
    assert.deepEqual(usesOf(scan({ response_format: { type: 'text' } })), []);
    assert.deepEqual(usesOf(scan({ response_format: 'json_schema' })), ['json_schema response_format'], 'a malformed capability field is still gated');
    assert.deepEqual(usesOf(scan({ reasoning_effort: 'low' })), ['reasoning reasoning_effort']);
    assert.deepEqual(usesOf(scan({ reasoning_effort: null })), []);
  });

  it('calls unknown the fields no capability covers, and fields it has never heard of', () => {
    assert.deepEqual(scan({ audio: { voice: 'alloy', format: 'wav' }, modalities: ['text', 'audio'] }).unknown, ['audio', 'modalities']);
    assert.deepEqual(scan({ prediction: { type: 'content', content: 'x' }, web_search_options: {} }).unknown, ['prediction', 'web_search_options']);
    assert.deepEqual(scan({ modalities: ['text'] }).unknown, []);
    assert.deepEqual(scan({ brand_new_field: true }).unknown, ['brand_new_field']);
    assert.deepEqual(scan({ audio: null, prediction: null }).unknown, [], 'null is absent');
  });

  it('calls unknown a content part, tool or response format of a type it does not know, and an unknown role', () => {
    const body = scan({
      messages: [{ role: 'user', content: [{ type: 'video_url', video_url: { url: 'x' } }, { text: 'no type' }] }, { role: 'robot', content: 'Hi' }],
      tools: [{ type: 'web_search' }],
      response_format: { type: 'grammar' },
    });
    assert.deepEqual(body.unknown, ['messages[0].content[0].type', 'messages[0].content[1].type', 'messages[1].role', 'tools[0].type', 'response_format.type']);
    assert.deepEqual(usesOf(body), ['tools tools[0].type'], 'an unknown tool is still a tool');
  });

  it('reports both output token fields, numbers only', () => {
    assert.deepEqual(scan({ max_tokens: 100, max_completion_tokens: 50 }).outputTokens, [
      { param: 'max_tokens', value: 100, kind: 'max_output' },
      { param: 'max_completion_tokens', value: 50, kind: 'max_output' },
    ]);
    assert.deepEqual(scan({ max_tokens: '100' }).outputTokens, []);
  });

  it('never throws, whatever the body', () => {
    const keys = [...Object.keys(ordinaryBody), 'messages', 'content', 'type', 'role', 'tools', 'functions', 'function_call', 'response_format', 'image_url', '__proto__'];
    for (const body of junkBodies(ordinaryBody, keys, 2000)) assert.doesNotThrow(() => scanWireBody(openAIChatWireScanner, body), JSON.stringify(body));
  });
});
