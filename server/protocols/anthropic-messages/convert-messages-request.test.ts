import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeToolCallId } from '../../core/tool-call-signature.js';
import { GatewayError } from '../../core/gateway-error.js';
import { convertMessagesRequest } from './convert-messages-request.js';
import type { MessagesCreateRequest } from './wire-types.js';

const base = { model: 'claude', max_tokens: 512 };
const convert = (body: Partial<MessagesCreateRequest>, mode: 'translate' | 'inspect' = 'translate') =>
  convertMessagesRequest({ ...base, messages: [{ role: 'user', content: 'Hi' }], ...body } as MessagesCreateRequest, mode);

describe('convertMessagesRequest', () => {
  it('maps the sampling settings, the limit, stop sequences and the end user', () => {
    const request = convert({ temperature: 0.2, top_p: 0.9, top_k: 40, stop_sequences: ['END'], metadata: { user_id: 'u-1' } });
    assert.equal(request.model, 'claude');
    assert.equal(request.maxOutputTokens, 512);
    assert.deepEqual([request.temperature, request.topP, request.topK], [0.2, 0.9, 40]);
    assert.deepEqual(request.stopSequences, ['END']);
    assert.equal(request.user, 'u-1');
    assert.deepEqual(request.messages, [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
    assert.deepEqual(request.responseFormat, { type: 'text' });
    assert.deepEqual(request.toolChoice, { type: 'auto' });
  });

  it('takes the system prompt as a string or as blocks with cache hints', () => {
    assert.deepEqual(convert({ system: 'Be brief.' }).instructions, [{ text: 'Be brief.' }]);
    const blocks = convert({
      system: [
        { type: 'text', text: 'You are Claude Code.' },
        { type: 'text', text: 'Project notes', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
    });
    assert.deepEqual(blocks.instructions, [{ text: 'You are Claude Code.' }, { text: 'Project notes', cache: { type: 'ephemeral', ttl: '1h' } }]);
    assert.deepEqual(convert({ system: '' }).instructions, []);
  });

  it('converts images by base64 and URL, PDFs, and text documents', () => {
    const request = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' }, cache_control: { type: 'ephemeral' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' }, title: 'spec.pdf' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
            { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'chunk one' }] } },
          ],
        },
      ],
    });
    assert.deepEqual(request.messages[0]!.content, [
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBOR' }, cache: { type: 'ephemeral' } },
      { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, filename: 'spec.pdf' },
      { type: 'text', text: 'plain words' },
      { type: 'text', text: 'chunk one' },
    ]);
  });

  it('turns tool_use and tool_result into a call and its result, decoding a folded Gemini signature', () => {
    const id = encodeToolCallId('call_1', 'sig-bytes');
    const request = convert({
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id, name: 'weather', input: { city: 'Paris' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: '21°C' }], is_error: false },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'boom', is_error: true },
          ],
        },
      ],
    });
    assert.deepEqual(request.messages[1]!.content, [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}', signature: 'sig-bytes' },
    ]);
    assert.deepEqual(request.messages[2]!.content, [
      { type: 'tool_result', callId: 'call_1', content: [{ type: 'text', text: '21°C' }], name: 'weather' },
      { type: 'tool_result', callId: 'toolu_2', content: [{ type: 'text', text: 'boom' }], isError: true },
    ]);
  });

  it('keeps thinking signatures and redacted thinking; an empty signature means none', () => {
    const request = convert({
      messages: [
        { role: 'user', content: 'Think.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Hmm', signature: 'EqQBCkgIAR' },
            { type: 'redacted_thinking', data: 'EmwKAhgBEgy' },
            { type: 'thinking', thinking: 'From elsewhere', signature: '' },
            { type: 'text', text: 'Done.' },
          ],
        },
      ],
    });
    assert.deepEqual(request.messages[1]!.content, [
      { type: 'reasoning', text: 'Hmm', signature: 'EqQBCkgIAR' },
      { type: 'reasoning', text: '', redacted: 'EmwKAhgBEgy' },
      { type: 'reasoning', text: 'From elsewhere' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('maps tools and every tool_choice, with disable_parallel_tool_use', () => {
    const tools = [{ name: 'weather', description: 'Weather now', input_schema: { type: 'object', properties: {} } }];
    const request = convert({ tools, tool_choice: { type: 'any', disable_parallel_tool_use: true } });
    assert.deepEqual(request.tools, [{ name: 'weather', description: 'Weather now', parameters: { type: 'object', properties: {} } }]);
    assert.deepEqual(request.toolChoice, { type: 'required' });
    assert.equal(request.parallelToolCalls, false);
    assert.deepEqual(convert({ tools, tool_choice: { type: 'tool', name: 'weather' } }).toolChoice, { type: 'tool', name: 'weather' });
    assert.deepEqual(convert({ tools, tool_choice: { type: 'none' } }).toolChoice, { type: 'none' });
    assert.equal(convert({ tools, tool_choice: { type: 'auto' } }).parallelToolCalls, undefined);
  });

  it('maps thinking: a budget stays a budget, adaptive thinking becomes an effort', () => {
    assert.deepEqual(convert({ thinking: { type: 'enabled', budget_tokens: 4096 } }).reasoning, { budgetTokens: 4096 });
    assert.equal(convert({ thinking: { type: 'disabled' } }).reasoning, undefined);
    assert.deepEqual(convert({ thinking: { type: 'adaptive' } }).reasoning, { effort: 'high' });
    assert.deepEqual(convert({ thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }).reasoning, { effort: 'xhigh' });
    assert.deepEqual(convert({ thinking: { type: 'between_tools' } }).reasoning, { effort: 'low' });
    assert.equal(convert({ output_config: { effort: 'low' } }).reasoning, undefined, 'effort alone does not turn thinking on');
  });

  it('reads output_config.format as a JSON schema response format', () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    assert.deepEqual(convert({ output_config: { format: { type: 'json_schema', schema } } }).responseFormat, { type: 'json_schema', name: 'response', schema });
  });

  it("refuses Anthropic's own tools and file IDs when translating, and skips them when inspecting", () => {
    const serverTool = { tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] } as Partial<MessagesCreateRequest>;
    assert.throws(() => convert(serverTool), (error: GatewayError) => error.status === 400 && error.param === 'tools[0].type' && /web_search/.test(error.message));
    assert.deepEqual(convert(serverTool, 'inspect').tools, []);

    const fileImage = {
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_1' } }] }],
    } as Partial<MessagesCreateRequest>;
    assert.throws(() => convert(fileImage), (error: GatewayError) => error instanceof GatewayError && error.param === 'messages[0].content[0].source');
    assert.deepEqual(convert(fileImage, 'inspect').messages[0]!.content, []);
  });

  it('leaves out blocks only Anthropic reads, such as server tool calls and their results', () => {
    const request = convert({
      messages: [
        { role: 'user', content: 'Search the news.' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'news' } },
            { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
            { type: 'text', text: 'Here is the news.' },
          ],
        },
      ],
    } as Partial<MessagesCreateRequest>);
    assert.deepEqual(request.messages[1]!.content, [{ type: 'text', text: 'Here is the news.' }]);
  });
});
