import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeToolCallId } from '../../core/tool-call-signature.js';
import { GatewayError } from '../../core/gateway-error.js';
import { fixtureJson } from '../../../test/helpers/upstream-fixtures.js';
import { convertResponsesRequest, type ResponsesHistory } from './convert-responses-request.js';
import { encodeReasoningState } from './reasoning-state.js';
import type { ResponsesCreateRequest, ResponsesInputItem } from './wire-types.js';

const noHistory: ResponsesHistory = { items: [], lookup: () => undefined };
const historyOf = (items: ResponsesInputItem[], stored: Record<string, ResponsesInputItem> = {}): ResponsesHistory => ({
  items,
  lookup: (id) => stored[id],
});
const convert = (body: Omit<ResponsesCreateRequest, 'model'> & Record<string, unknown>, history = noHistory) =>
  convertResponsesRequest({ model: 'm', ...body }, history);

function rejects(body: Record<string, unknown>, param: string, message?: RegExp, history = noHistory): void {
  assert.throws(
    () => convert(body as ResponsesCreateRequest, history),
    (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.status, 400);
      assert.equal(error.param, param);
      if (message) assert.match(error.message, message);
      return true;
    },
  );
}

const multiply = {
  name: 'multiply',
  description: 'Multiply two numbers.',
  parameters: { properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], type: 'object' },
};

test('a recorded function call and its output become a tool call turn and a named tool result', () => {
  const request = convertResponsesRequest(fixtureJson<ResponsesCreateRequest>('openai-responses/stream-text-after-tool-output.request.json'), noHistory);
  assert.equal(request.model, 'gpt-5.5');
  assert.deepEqual(request.messages, [
    { role: 'user', content: [{ type: 'text', text: 'What is 1231 * 2331? Use the multiply tool.' }] },
    { role: 'assistant', content: [{ type: 'tool_call', id: 'call_sVidsfFJ6zlzRpelrPkTPlpd', name: 'multiply', arguments: '{"a": 1231, "b": 2331}' }] },
    {
      role: 'user',
      content: [{ type: 'tool_result', callId: 'call_sVidsfFJ6zlzRpelrPkTPlpd', name: 'multiply', content: [{ type: 'text', text: '2869461' }] }],
    },
  ]);
  assert.deepEqual(request.tools, [multiply]);
  assert.deepEqual(request.toolChoice, { type: 'auto' });
  assert.deepEqual(request.reasoning, { effort: 'low' });
  assert.deepEqual(request.instructions, []);
});

test('recorded requests: tools and reasoning effort, with the summary setting dropped', () => {
  const call = convertResponsesRequest(fixtureJson<ResponsesCreateRequest>('openai-responses/stream-function-call.request.json'), noHistory);
  assert.deepEqual(call.tools, [multiply]);
  assert.equal(call.messages.length, 1);
  const reasoning = convertResponsesRequest(fixtureJson<ResponsesCreateRequest>('openai-responses/stream-reasoning-summary.request.json'), noHistory);
  assert.equal(reasoning.model, 'o3-mini');
  assert.deepEqual(reasoning.reasoning, { effort: 'high' });
  assert.deepEqual(reasoning.messages, [{ role: 'user', content: [{ type: 'text', text: 'How do I cross the street?' }] }]);
  assert.deepEqual(reasoning.responseFormat, { type: 'text' });
});

test('string input and the scalar settings; unknown fields are ignored', () => {
  const request = convert({
    input: 'Hi',
    instructions: 'Be brief.',
    max_output_tokens: 100,
    temperature: 0.5,
    top_p: 0.9,
    parallel_tool_calls: false,
    metadata: { a: 'b' },
    user: 'u1',
    store: false,
    truncation: 'auto',
    some_future_field: { x: 1 },
  });
  assert.deepEqual(request.messages, [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  assert.deepEqual(request.instructions, [{ text: 'Be brief.' }]);
  assert.equal(request.maxOutputTokens, 100);
  assert.equal(request.temperature, 0.5);
  assert.equal(request.topP, 0.9);
  assert.equal(request.parallelToolCalls, false);
  assert.deepEqual(request.metadata, { a: 'b' });
  assert.equal(request.user, 'u1');
  assert.deepEqual(request.stopSequences, []);
  assert.equal(request.reasoning, undefined);
});

test('system and developer messages follow instructions, in order', () => {
  const request = convert({
    instructions: 'First.',
    input: [
      { role: 'system', content: 'Second.' },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Thi' }, { type: 'input_text', text: 'rd.' }] },
      { role: 'user', content: 'Hello' },
    ],
  });
  assert.deepEqual(request.instructions, [{ text: 'First.' }, { text: 'Second.' }, { text: 'Third.' }]);
  assert.deepEqual(request.messages, [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }]);
});

test('image and file parts', () => {
  const request = convert({
    input: [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0K', detail: 'low' },
          { type: 'input_image', image_url: 'https://example.com/cat.jpg' },
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0x', filename: 'a.pdf' },
          { type: 'input_file', file_url: 'https://example.com/b.pdf' },
        ],
      },
    ],
  });
  assert.deepEqual(request.messages[0].content, [
    { type: 'text', text: 'Look' },
    { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0K' }, detail: 'low' },
    { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
    { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0x' }, filename: 'a.pdf' },
    { type: 'file', source: { kind: 'url', url: 'https://example.com/b.pdf' } },
  ]);
});

test("OpenAI's own encrypted reasoning is not passed to other upstreams; its summary is", () => {
  const request = convert({
    input: [
      { role: 'user', content: 'Hi' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Thought.' }], encrypted_content: 'gAAAAABopaque' },
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAAAABonly-opaque' },
      { role: 'assistant', content: 'Hello' },
    ],
  });
  assert.deepEqual(request.messages[1], {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Thought.' },
      { type: 'text', text: 'Hello' },
    ],
  });
});

test('history comes before the input; echoed output, reasoning and a Gemini signature round-trip', () => {
  const callId = encodeToolCallId('call_1', 'sig==');
  const history = historyOf([
    { role: 'developer', content: 'Earlier rule.' },
    { role: 'user', content: 'Weather?' },
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'A' }, { type: 'summary_text', text: 'B' }], encrypted_content: encodeReasoningState({ signature: 'thinking-sig', redacted: 'enc' }) },
    { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
    { type: 'function_call', id: 'fc_1', call_id: callId, name: 'weather', arguments: '{}', status: 'completed' },
  ]);
  const request = convert({ instructions: 'Now.', input: [{ type: 'function_call_output', call_id: callId, output: 'Sunny' }] }, history);
  assert.deepEqual(request.instructions, [{ text: 'Now.' }, { text: 'Earlier rule.' }]);
  assert.deepEqual(request.messages, [
    { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'A\n\nB', signature: 'thinking-sig', redacted: 'enc' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{}', signature: 'sig==' },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', callId: 'call_1', name: 'weather', content: [{ type: 'text', text: 'Sunny' }] }] },
  ]);
});

test('consecutive assistant items share one turn; consecutive outputs share one user turn', () => {
  const request = convert({
    input: [
      { role: 'user', content: 'Go' },
      { type: 'reasoning', summary: [] },
      { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }, { type: 'output_text', text: '' }] },
      { type: 'function_call', call_id: 'a', name: 'f', arguments: '1' },
      { type: 'function_call', call_id: 'b', name: 'g', arguments: '2' },
      { type: 'function_call_output', call_id: 'a', output: 'x' },
      {
        type: 'function_call_output',
        call_id: 'b',
        output: [{ type: 'input_text', text: 'y' }, { type: 'input_image', image_url: 'https://e.com/i.png' }],
      },
      { type: 'function_call_output', call_id: 'unseen', output: 'z' },
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: 'Welcome' },
    ],
  });
  assert.deepEqual(request.messages, [
    { role: 'user', content: [{ type: 'text', text: 'Go' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'No.' },
        { type: 'tool_call', id: 'a', name: 'f', arguments: '1' },
        { type: 'tool_call', id: 'b', name: 'g', arguments: '2' },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', callId: 'a', name: 'f', content: [{ type: 'text', text: 'x' }] },
        {
          type: 'tool_result',
          callId: 'b',
          name: 'g',
          content: [{ type: 'text', text: 'y' }, { type: 'image', source: { kind: 'url', url: 'https://e.com/i.png' } }],
        },
        { type: 'tool_result', callId: 'unseen', content: [{ type: 'text', text: 'z' }] },
      ],
    },
    { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Welcome' }] },
  ]);
});

test('item references are resolved in place, with or without their type', () => {
  const stored: Record<string, ResponsesInputItem> = {
    msg_1: { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello' }] },
    fc_1: { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'f', arguments: '{}' },
  };
  const request = convert(
    { input: [{ role: 'user', content: 'Hi' }, { type: 'item_reference', id: 'msg_1' }, { id: 'fc_1' }, { type: 'function_call_output', call_id: 'c1', output: 'ok' }] },
    historyOf([], stored),
  );
  assert.deepEqual(request.messages, [
    { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Hello' }, { type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' }] },
    { role: 'user', content: [{ type: 'tool_result', callId: 'c1', name: 'f', content: [{ type: 'text', text: 'ok' }] }] },
  ]);
  rejects({ input: [{ role: 'user', content: 'Hi' }, { type: 'item_reference', id: 'msg_404' }] }, 'input[1].id', /msg_404/);
  const loop = historyOf([], { ref_1: { type: 'item_reference', id: 'ref_1' } });
  rejects({ input: [{ type: 'item_reference', id: 'ref_1' }] }, 'input[0].id', undefined, loop);
});

test('text.format and tool_choice', () => {
  const schema = { type: 'object', properties: {} };
  assert.deepEqual(convert({ text: { format: { type: 'json_object' } } }).responseFormat, { type: 'json_object' });
  assert.deepEqual(convert({ text: { format: { type: 'json_schema', name: 'x', schema, strict: true, description: 'd' } } }).responseFormat, {
    type: 'json_schema',
    name: 'x',
    schema,
    strict: true,
    description: 'd',
  });
  const tools = [{ type: 'function' as const, name: 'f' }];
  assert.deepEqual(convert({ tools }).tools, [{ name: 'f', parameters: { type: 'object', properties: {} } }]);
  assert.deepEqual(convert({ tools, tool_choice: 'required' }).toolChoice, { type: 'required' });
  assert.deepEqual(convert({ tools, tool_choice: 'none' }).toolChoice, { type: 'none' });
  assert.deepEqual(convert({ tools, tool_choice: { type: 'function', name: 'f' } }).toolChoice, { type: 'tool', name: 'f' });
});

test('namespace and custom tools become functions; hosted tools are left to the handler', () => {
  const tools = [
    { type: 'namespace', name: 'crm', description: 'CRM', tools: [{ type: 'function', name: 'find', parameters: { type: 'object' } }, { type: 'custom', name: 'note' }] },
    { type: 'custom', name: 'apply_patch' },
    { type: 'web_search' },
  ] as unknown as ResponsesCreateRequest['tools'];
  const converted = convert({ tools, tool_choice: { type: 'custom', name: 'apply_patch' } });
  assert.deepEqual(converted.tools.map((tool) => tool.name), ['crm__find', 'crm__note', 'apply_patch']);
  assert.deepEqual(converted.tools[2]!.parameters.required, ['input']);
  assert.deepEqual(converted.toolChoice, { type: 'tool', name: 'apply_patch' });
});

test("items only OpenAI reads (hosted tools' calls, compaction) are left out for other upstreams", () => {
  const input = [
    { role: 'user', content: 'Search' },
    { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
    { type: 'compaction', encrypted_content: 'opaque' },
  ] as unknown as ResponsesCreateRequest['input'];
  assert.deepEqual(convert({ input }).messages, [{ role: 'user', content: [{ type: 'text', text: 'Search' }] }]);
});

test('bad input is refused with the parameter the client named', () => {
  const call = { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' };
  rejects({ input: [{ role: 'user', content: 'a' }, call, { type: 'function_call_output', output: 'x' }] }, 'input[2].call_id');
  rejects({ input: [{ role: 'tool', content: 'x' }] }, 'input[0].role');
  rejects({ input: [{ content: 'x' }] }, 'input[0].role');
  rejects({ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] }, 'input[0].content[0].file_id', /file IDs are not supported/);
  rejects({ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1' }] }] }, 'input[0].content[0].file_id', /file IDs are not supported/);
  rejects({ input: [{ role: 'user', content: [{ type: 'input_file', file_data: 'JVBERi0x' }] }] }, 'input[0].content[0].file_data');
  rejects({ input: [{ role: 'user', content: [{ type: 'input_audio' }] }] }, 'input[0].content[0].type');
  rejects({ input: [{ role: 'user', content: [{ type: 'refusal', refusal: 'no' }] }] }, 'input[0].content[0].type');
  rejects({ input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://e.com/i.png' }] }] }, 'input[0].content[0].type');
  rejects({ input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://e.com/i.png' }] }] }, 'input[0].content[0].type');
  rejects({ input: [call, { type: 'function_call_output', call_id: 'c', output: [{ type: 'refusal', refusal: 'x' }] }] }, 'input[1].output[0].type');
  rejects({ tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', name: 'g' } }, 'tool_choice');
  rejects({ tool_choice: { type: 'file_search' } }, 'tool_choice.type');
  rejects({ tool_choice: 'any' }, 'tool_choice');
  rejects({ text: { format: { type: 'grammar' } } }, 'text.format.type');
  rejects({ text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name');
});

test('a broken stored conversation is blamed on previous_response_id', () => {
  const history = historyOf([{ type: 'function_call_output', output: 'x' } as unknown as ResponsesInputItem]);
  rejects({ input: 'Hi' }, 'previous_response_id', /previous_response_id/, history);
});
