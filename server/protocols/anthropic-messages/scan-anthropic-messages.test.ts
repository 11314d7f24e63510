import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { junkBodies, specExamples, specFields, usesOf } from '../../../test/helpers/wire-scan-support.js';
import { scanWireBody } from '../../access/wire-scan/wire-scan.js';
import { anthropicMessagesWireScanner } from './scan-anthropic-messages.js';

const scan = (fields: Record<string, unknown>) => scanWireBody(anthropicMessagesWireScanner, { model: 'claude', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }], ...fields });
const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } };

/** A request in the shape Claude Code sends (as in test/anthropic-pass-through.test.ts), plus a system turn. */
const claudeCodeBody = {
  model: 'claude-sonnet-4-5',
  max_tokens: 32000,
  stream: true,
  system: [
    { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
    { type: 'text', text: 'Project instructions', cache_control: { type: 'ephemeral' } },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'What changed in the news today?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Search first.', signature: 'EqQBCkgIARAB' },
        { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: 'date' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: 'Mon' }], is_error: false }] },
    { role: 'system', content: 'The user switched to plan mode.' },
    { role: 'user', content: [{ type: 'text', text: 'Divide 925 by 5.', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
  ],
  tools: [{ name: 'Bash', description: 'Runs a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } } }, cache_control: { type: 'ephemeral' } }],
  tool_choice: { type: 'auto' },
  thinking: { type: 'adaptive' },
  temperature: 1,
  metadata: { user_id: 'user_abc_account__session_123' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  output_config: { effort: 'high' },
};

describe('scanWireBody anthropic-messages', () => {
  it('finds nothing unknown in the spec examples (create and count_tokens) and a Claude Code body', () => {
    const bodies = [...specExamples('AnthropicCreateMessageRequest'), ...specExamples('AnthropicCountTokensRequest'), ['claude-code', claudeCodeBody] as [string, unknown]];
    for (const [name, body] of bodies) assert.deepEqual(scanWireBody(anthropicMessagesWireScanner, body).unknown, [], name);
    assert.deepEqual(usesOf(scanWireBody(anthropicMessagesWireScanner, claudeCodeBody)), ['reasoning output_config.effort', 'reasoning thinking', 'tools tools[0]']);
  });

  it('classifies every field the spec names, for create and count_tokens', () => {
    const fields = [...specFields('AnthropicCreateMessageRequest'), ...specFields('AnthropicCountTokensRequest')];
    for (const field of fields) assert.deepEqual(scanWireBody(anthropicMessagesWireScanner, { [field]: true }).unknown, [], field);
    for (const field of specFields('AnthropicOutputConfig')) assert.deepEqual(scan({ output_config: { [field]: true } }).unknown, [], `output_config.${field}`);
  });

  it('asks for tools for every server tool, by family and version date', () => {
    const types = ['web_search_20250305', 'web_fetch_20250910', 'bash_20250124', 'computer_20250124', 'text_editor_20250728', 'code_execution_20250825', 'memory_20250818', 'custom'];
    const body = scan({ tools: types.map((type) => ({ type, name: type })) });
    assert.deepEqual(usesOf(body), types.map((_type, index) => `tools tools[${index}].type`).sort());
    assert.deepEqual(body.unknown, []);
  });

  it('asks for tools for MCP servers, the container and forcing tool choices', () => {
    assert.deepEqual(usesOf(scan({ mcp_servers: [{ type: 'url', url: 'https://mcp.example.com', name: 'x' }] })), ['tools mcp_servers']);
    assert.deepEqual(usesOf(scan({ container: 'container_1' })), ['tools container']);
    assert.deepEqual(usesOf(scan({ tool_choice: { type: 'any' } })), ['tools tool_choice']);
    assert.deepEqual(usesOf(scan({ tool_choice: { type: 'none' }, mcp_servers: [] })), []);
  });

  it('asks for tools for echoed server tool blocks', () => {
    const body = scan({
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'news' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [] },
          ],
        },
      ],
    });
    assert.deepEqual(usesOf(body), ['tools messages[0].content[0]', 'tools messages[0].content[1]']);
  });

  it('asks for vision for images, also inside tool results, and for PDF documents but not text ones', () => {
    const pdf = (source: object) => ({ type: 'document', source });
    const body = scan({
      messages: [
        { role: 'user', content: [image, pdf({ type: 'text', media_type: 'text/plain', data: 'notes' })] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'shot' }, image, pdf({ type: 'url', url: 'https://x/a.pdf' })] }] },
        { role: 'user', content: [pdf({ type: 'base64', media_type: 'application/pdf', data: 'AA==' }), pdf({ type: 'file', file_id: 'file_1' }), pdf({ type: 'content', content: [image] })] },
      ],
    });
    assert.deepEqual(usesOf(body), [
      'vision messages[0].content[0]',
      'vision messages[1].content[0].content[1]',
      'vision messages[1].content[0].content[2].source',
      'vision messages[2].content[0].source',
      'vision messages[2].content[1].source',
      'vision messages[2].content[2].source.content[0]',
    ]);
  });

  it('asks for json_schema for output_config.format and the beta output_format', () => {
    const format = { type: 'json_schema', schema: { type: 'object' } };
    assert.deepEqual(usesOf(scan({ output_config: { format } })), ['json_schema output_config.format']);
    assert.deepEqual(usesOf(scan({ output_format: format })), ['json_schema output_format']);
  });

  it('asks for reasoning for thinking unless it is disabled, and reports the budget', () => {
    const body = scan({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    assert.deepEqual(usesOf(body), ['reasoning thinking']);
    assert.deepEqual(body.outputTokens, [
      { param: 'max_tokens', value: 1024, kind: 'max_output' },
      { param: 'thinking.budget_tokens', value: 2048, kind: 'reasoning_budget' },
    ]);
    assert.deepEqual(usesOf(scan({ thinking: { type: 'disabled' } })), []);
    assert.deepEqual(usesOf(scan({ thinking: 'on' })), ['reasoning thinking']);
  });

  it('calls unknown the fields, block, tool and source types and roles it does not know', () => {
    const body = scan({
      messages: [
        { role: 'robot', content: [{ type: 'hologram' }] },
        { role: 'user', content: [{ type: 'document', source: { type: 'ftp' } }, { type: 'tool_result', tool_use_id: 't', content: [{ type: 'video' }] }] },
      ],
      system: [{ type: 'image' }],
      tools: [{ type: 'teleport_20990101', name: 't' }],
      output_config: { effort: 'low', task_budget: 5 },
      brand_new_field: true,
    });
    assert.deepEqual(body.unknown, [
      'messages[0].role',
      'messages[0].content[0].type',
      'messages[1].content[0].source.type',
      'messages[1].content[1].content[0].type',
      'system[0].type',
      'tools[0].type',
      'output_config.task_budget',
      'brand_new_field',
    ]);
    assert.ok(usesOf(body).includes('tools tools[0].type'), 'an unknown tool is still a tool');
  });

  it('never throws, whatever the body', () => {
    const keys = [...Object.keys(claudeCodeBody), 'type', 'role', 'content', 'source', 'budget_tokens', 'mcp_servers', 'output_format', '__proto__'];
    for (const body of junkBodies(claudeCodeBody, keys, 2000)) assert.doesNotThrow(() => scanWireBody(anthropicMessagesWireScanner, body), JSON.stringify(body));
  });
});
