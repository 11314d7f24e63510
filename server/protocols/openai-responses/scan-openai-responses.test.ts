import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { junkBodies, recordedRequests, specExamples, specFields, usesOf } from '../../../test/helpers/wire-scan-support.js';
import { scanWireBody } from '../../access/wire-scan/wire-scan.js';
import { openAIResponsesWireScanner } from './scan-openai-responses.js';

const scan = (fields: Record<string, unknown>) => scanWireBody(openAIResponsesWireScanner, { model: 'gpt-5', input: 'Hi', ...fields });
const functionTool = { type: 'function', name: 'shell', description: 'Runs a command.', strict: false, parameters: { type: 'object', properties: { command: { type: 'array' } } } };

/** A request in the shape Codex CLI sends with `store: false`: developer and user turns, replayed items, its tool kinds. */
const codexBody = {
  model: 'gpt-5-codex',
  instructions: 'You are Codex, a coding agent.',
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions>…</permissions>' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the build.' }] },
    { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Look first.' }], content: null, encrypted_content: 'gAAAA…' },
    { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_1' },
    { type: 'function_call_output', call_id: 'call_1', output: 'src\n' },
    { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'call_2' },
    { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.', annotations: [] }] },
  ],
  tools: [
    functionTool,
    { type: 'custom', name: 'apply_patch', description: 'Edits files.', format: { type: 'grammar', syntax: 'lark', definition: 'start: …' } },
    { type: 'web_search' },
    { type: 'namespace', name: 'mcp__docs', description: 'Docs server', tools: [{ ...functionTool, name: 'search' }] },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  reasoning: { effort: 'medium', summary: 'auto' },
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: '3f1c-session',
  text: { verbosity: 'low' },
  service_tier: 'auto',
};

describe('scanWireBody openai-responses', () => {
  it('finds nothing unknown in the spec examples, the recorded requests and a Codex body', () => {
    const bodies = [...specExamples('ResponsesCreateRequest'), ...recordedRequests('openai-responses'), ['codex', codexBody] as [string, unknown]];
    for (const [name, body] of bodies) assert.deepEqual(scanWireBody(openAIResponsesWireScanner, body).unknown, [], name);
    assert.deepEqual(usesOf(scanWireBody(openAIResponsesWireScanner, codexBody)), [
      'reasoning reasoning',
      'tools tools[0].type',
      'tools tools[1].type',
      'tools tools[2].type',
      'tools tools[3].tools[0].type',
      'tools tools[3].type',
    ]);
  });

  it('classifies every field the spec names', () => {
    for (const field of specFields('ResponsesCreateRequest')) assert.deepEqual(scanWireBody(openAIResponsesWireScanner, { [field]: true }).unknown, [], field);
    for (const field of specFields('ResponsesTextConfig')) assert.deepEqual(scan({ text: { [field]: true } }).unknown, [], `text.${field}`);
  });

  it('asks for tools for every hosted tool, and image_generation for the image tool', () => {
    const hosted = ['web_search', 'web_search_preview', 'file_search', 'code_interpreter', 'computer_use_preview', 'computer_use', 'mcp', 'local_shell', 'shell', 'custom', 'apply_patch'];
    const body = scan({ tools: hosted.map((type) => ({ type })) });
    assert.deepEqual(usesOf(body), hosted.map((_type, index) => `tools tools[${index}].type`).sort());
    assert.deepEqual(body.unknown, []);
    assert.deepEqual(usesOf(scan({ tools: [{ type: 'image_generation', quality: 'low' }] })), ['image_generation tools[0].type', 'tools tools[0].type']);
  });

  it('reads the tools inside a namespace, but not a namespace inside one', () => {
    const body = scan({ tools: [{ type: 'namespace', tools: [{ type: 'image_generation' }, { type: 'namespace', tools: [] }] }] });
    assert.deepEqual(usesOf(body), ['image_generation tools[0].tools[0].type', 'tools tools[0].tools[0].type', 'tools tools[0].tools[1].type', 'tools tools[0].type']);
    assert.deepEqual(body.unknown, ['tools[0].tools[1].type']);
  });

  it('treats a stored prompt and background mode as unknown', () => {
    assert.deepEqual(scan({ prompt: { id: 'pmpt_1', version: '2' }, background: true }).unknown, ['prompt', 'background']);
    assert.deepEqual(scan({ background: null }).unknown, []);
  });

  it('asks nothing itself of a conversation, whose items the gateway reads and checks as brought history', () => {
    assert.deepEqual(scan({ conversation: 'conv_1' }).unknown, []);
    assert.deepEqual(scan({ conversation: { id: 'conv_1' } }).uses, []);
  });

  it('asks for vision for images and files in messages, tool outputs and computer screenshots', () => {
    const image = { type: 'input_image', image_url: 'data:image/png;base64,AA==' };
    const body = scan({
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Look' }, image, { type: 'input_file', file_id: 'file_1' }] },
        { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'shot:' }, image] },
        { type: 'custom_tool_call_output', call_id: 'c2', output: [{ type: 'input_file', file_data: 'data:application/pdf;base64,AA==' }] },
        { type: 'computer_call_output', call_id: 'c3', output: { type: 'computer_screenshot', image_url: 'data:image/png;base64,AA==' } },
      ],
    });
    assert.deepEqual(usesOf(body), [
      'tools input[3]',
      'vision input[0].content[1]',
      'vision input[0].content[2]',
      'vision input[1].output[1]',
      'vision input[2].output[0]',
      'vision input[3].output',
    ]);
    assert.deepEqual(body.unknown, []);
  });

  it('asks for tools for items of hosted tools, but not for function calls and their outputs', () => {
    const body = scan({
      input: [
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        { type: 'mcp_approval_response', approval_request_id: 'a', approve: true },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      ],
    });
    assert.deepEqual(usesOf(body), ['tools input[0]', 'tools input[1]']);
  });

  it('asks for json_schema for a schema text format, and reasoning for any reasoning setting', () => {
    assert.deepEqual(usesOf(scan({ text: { format: { type: 'json_schema', name: 'r', schema: { type: 'object' } }, verbosity: 'high' } })), ['json_schema text.format']);
    assert.deepEqual(usesOf(scan({ text: { format: { type: 'json_object' } } })), []);
    assert.deepEqual(usesOf(scan({ reasoning: { summary: 'auto' } })), ['reasoning reasoning']);
    assert.deepEqual(usesOf(scan({ reasoning: null })), []);
  });

  it('calls unknown the item, part, tool and format types and roles it does not know', () => {
    const body = scan({
      input: [{ type: 'teleport' }, { role: 'robot', content: 'Hi' }, { role: 'user', content: [{ type: 'input_video' }] }, { status: 'no type, no role, no id' }],
      tools: [{ type: 'time_travel' }],
      text: { format: { type: 'yaml' }, tone: 'warm' },
      brand_new_field: 1,
    });
    assert.deepEqual(body.unknown, ['input[0].type', 'input[1].role', 'input[2].content[0].type', 'input[3].type', 'tools[0].type', 'text.format.type', 'text.tone', 'brand_new_field']);
    assert.deepEqual(usesOf(body), ['tools tools[0].type']);
  });

  it('reads a message and an item reference without their type', () => {
    assert.deepEqual(scan({ input: [{ role: 'user', content: 'Hi' }, { id: 'msg_1' }] }).unknown, []);
  });

  it('reads items brought in from history as the same items in input, and an unresolved reference as unknown', () => {
    const screenshot = { type: 'computer_call_output', call_id: 'c', output: { type: 'computer_screenshot', image_url: 'https://x/s.png' } };
    const brought = scanWireBody(openAIResponsesWireScanner, { model: 'gpt-5', input: [{ type: 'item_reference', id: 'cuo_1' }] }, [
      { item: screenshot, param: 'input[0]' },
      { item: { type: 'web_search_call', status: 'completed' }, param: 'previous_response_id[3]' },
      { item: { type: 'item_reference', id: 'ig_unknown' }, param: 'previous_response_id[4]' },
    ]);
    assert.deepEqual(usesOf(brought), ['tools input[0]', 'tools previous_response_id[3]', 'vision input[0].output']);
    assert.deepEqual(usesOf(brought), usesOf(scan({ input: [screenshot] })).concat('tools previous_response_id[3]').sort());
    assert.deepEqual(brought.unknown, ['previous_response_id[4]']);
  });

  it('reports max_output_tokens, numbers only', () => {
    assert.deepEqual(scan({ max_output_tokens: 300 }).outputTokens, [{ param: 'max_output_tokens', value: 300, kind: 'max_output' }]);
    assert.deepEqual(scan({ max_output_tokens: [300] }).outputTokens, []);
  });

  it('never throws, whatever the body', () => {
    const keys = [...Object.keys(codexBody), 'type', 'role', 'content', 'output', 'tools', 'format', 'prompt', '__proto__'];
    for (const body of junkBodies(codexBody, keys, 2000)) assert.doesNotThrow(() => scanWireBody(openAIResponsesWireScanner, body), JSON.stringify(body));
  });
});
