import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelRequest, userSays } from '../../../test/helpers/model-request-fixtures.js';
import type { Message, ModelRequest } from '../../core/internal-representation.js';
import { GatewayError } from '../../core/gateway-error.js';
import { convertRequestToAnthropic, defaultMaxOutputTokens, jsonResponseToolName } from './convert-request.js';

const convert = (messages: Message[], extra: Partial<ModelRequest> = {}) => convertRequestToAnthropic(modelRequest(messages, extra), 'claude-x');
const weather = { name: 'weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const png = { kind: 'base64' as const, mediaType: 'image/png', data: 'iVBORw0KGgo=' };

describe('convertRequestToAnthropic', () => {
  it('sends a minimal streamed request with the default max_tokens and no optional fields', () => {
    assert.deepEqual(convert([userSays('Hi')]), {
      model: 'claude-x',
      max_tokens: defaultMaxOutputTokens,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      stream: true,
    });
  });

  it('sends instructions as system text blocks and keeps cache hints as cache_control', () => {
    const body = convert([{ role: 'user', content: [{ type: 'text', text: 'Long document', cache: { type: 'ephemeral' } }] }], {
      instructions: [{ text: 'Be brief.' }, { text: 'Context', cache: { type: 'ephemeral', ttl: '1h' } }],
    });
    assert.deepEqual(body.system, [
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Context', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
    assert.deepEqual(body.messages[0]?.content, [{ type: 'text', text: 'Long document', cache_control: { type: 'ephemeral' } }]);
  });

  it('sends images by base64 and by URL, dropping detail', () => {
    const body = convert([
      {
        role: 'user',
        content: [
          { type: 'image', source: png, detail: 'high' },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/a.jpg' } },
        ],
      },
    ]);
    assert.deepEqual(body.messages[0]?.content, [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
    ]);
  });

  it('sends PDFs and plain text files as documents, and refuses other file types', () => {
    const text = Buffer.from('héllo', 'utf8').toString('base64');
    const body = convert([
      {
        role: 'user',
        content: [
          { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'a.pdf' },
          { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: text } },
        ],
      },
    ]);
    assert.deepEqual(body.messages[0]?.content, [
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
    ]);
    const zip = { type: 'file' as const, source: { kind: 'base64' as const, mediaType: 'application/zip', data: 'UEs=' } };
    assert.throws(() => convert([{ role: 'user', content: [zip] }]), { name: 'GatewayError', kind: 'invalid_request', param: 'messages' });
  });

  it('sends a tool round trip as tool_use with parsed input and a tool_result in the user turn', () => {
    const body = convert(
      [
        userSays('Weather in Paris?'),
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '' },
            { type: 'tool_call', id: 'toolu_1', name: 'weather', arguments: '{"city":"Paris"}' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', callId: 'toolu_1', content: [{ type: 'text', text: '18°C' }, { type: 'image', source: png }] },
            { type: 'tool_result', callId: 'toolu_2', content: [{ type: 'text', text: 'boom' }], isError: true },
          ],
        },
      ],
      { tools: [weather] },
    );
    assert.deepEqual(body.messages.slice(1), [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [
              { type: 'text', text: '18°C' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            ],
          },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'boom' }], is_error: true },
        ],
      },
    ]);
    assert.deepEqual(body.tools, [{ name: 'weather', description: 'Weather for a city', input_schema: weather.parameters }]);
    assert.deepEqual(body.tool_choice, { type: 'auto' });
  });

  it('refuses tool call arguments that are not a JSON object, and reads empty ones as {}', () => {
    for (const bad of ['not json', '[1,2]', '"text"']) {
      const message: Message = { role: 'assistant', content: [{ type: 'tool_call', id: 't', name: 'f', arguments: bad }] };
      assert.throws(() => convert([userSays('x'), message]), (error: unknown) => error instanceof GatewayError && error.kind === 'invalid_request' && error.param === 'messages');
    }
    const empty: Message = { role: 'assistant', content: [{ type: 'tool_call', id: 't', name: 'f', arguments: '' }] };
    assert.deepEqual(convert([userSays('x'), empty]).messages[1]?.content, [{ type: 'tool_use', id: 't', name: 'f', input: {} }]);
  });

  it('keeps signed and redacted thinking and drops unsigned reasoning', () => {
    const body = convert([
      userSays('2+2?'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Adding.', signature: 'sig_1' },
          { type: 'reasoning', text: '', redacted: 'opaque' },
          { type: 'reasoning', text: 'From another upstream, unsigned.' },
          { type: 'text', text: '4' },
        ],
      },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'Only unsigned reasoning.' }] },
      userSays('Thanks'),
    ]);
    assert.deepEqual(body.messages[1]?.content, [
      { type: 'thinking', thinking: 'Adding.', signature: 'sig_1' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: '4' },
    ]);
    assert.equal(body.messages.length, 3, 'a message left empty is not sent');
  });

  it('passes sampling options, stop sequences and the user, and drops what Anthropic lacks', () => {
    const body = convert([userSays('Hi')], {
      maxOutputTokens: 100,
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      stopSequences: ['END'],
      user: 'user-42',
      seed: 7,
      frequencyPenalty: 1,
      presencePenalty: 1,
      metadata: { team: 'a' },
    });
    const { messages: _messages, ...rest } = body;
    assert.deepEqual(rest, {
      model: 'claude-x',
      max_tokens: 100,
      stream: true,
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-42' },
    });
  });

  it('enables thinking from the budget or effort, raising max_tokens above it only without a cap, and leaving out temperature and top_k', () => {
    const withBudget = convert([userSays('Hi')], { reasoning: { budgetTokens: 2000 }, temperature: 0.5, topK: 5, topP: 0.95 });
    assert.deepEqual(withBudget.thinking, { type: 'enabled', budget_tokens: 2000 });
    assert.equal(withBudget.max_tokens, 2000 + defaultMaxOutputTokens);
    assert.equal(withBudget.temperature, undefined);
    assert.equal(withBudget.top_k, undefined);
    assert.equal(withBudget.top_p, 0.95);

    const roomy = convert([userSays('Hi')], { reasoning: { effort: 'low' }, maxOutputTokens: 10_000 });
    assert.deepEqual([roomy.thinking?.budget_tokens, roomy.max_tokens], [2048, 10_000]);
    assert.equal(convert([userSays('Hi')], { reasoning: { budgetTokens: 100 } }).thinking?.budget_tokens, 1024, 'raised to Anthropic’s minimum');
    // A named cap was reserved: max_tokens never grows past it, the budget shrinks into it (issue 34).
    const squeezed = convert([userSays('Hi')], { reasoning: { budgetTokens: 8000 }, maxOutputTokens: 5000 });
    assert.deepEqual([squeezed.thinking?.budget_tokens, squeezed.max_tokens], [2500, 5000]);
    const tiny = convert([userSays('Hi')], { reasoning: { effort: 'xhigh' }, maxOutputTokens: 10 });
    assert.deepEqual([tiny.thinking, tiny.max_tokens], [undefined, 10]);

    const off = convert([userSays('Hi')], { reasoning: { effort: 'none' }, temperature: 0.5 });
    assert.equal(off.thinking, undefined);
    assert.equal(off.temperature, 0.5);
  });

  it('converts every tool choice and disables parallel calls when asked, except on none', () => {
    const choice = (toolChoice: ModelRequest['toolChoice'], parallelToolCalls?: boolean) =>
      convert([userSays('Hi')], { tools: [weather], toolChoice, parallelToolCalls }).tool_choice;
    assert.deepEqual(choice({ type: 'auto' }), { type: 'auto' });
    assert.deepEqual(choice({ type: 'required' }), { type: 'any' });
    assert.deepEqual(choice({ type: 'tool', name: 'weather' }), { type: 'tool', name: 'weather' });
    assert.deepEqual(choice({ type: 'none' }), { type: 'none' });
    assert.deepEqual(choice({ type: 'auto' }, false), { type: 'auto', disable_parallel_tool_use: true });
    assert.deepEqual(choice({ type: 'required' }, false), { type: 'any', disable_parallel_tool_use: true });
    assert.deepEqual(choice({ type: 'none' }, false), { type: 'none' });
    assert.deepEqual(choice({ type: 'auto' }, true), { type: 'auto' });
    const noTools = convert([userSays('Hi')], { toolChoice: { type: 'required' } });
    assert.deepEqual([noTools.tools, noTools.tool_choice], [undefined, undefined]);
  });

  it('asks for JSON through a forced json tool', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const body = convert([userSays('Hi')], { responseFormat: { type: 'json_schema', name: 'result', schema } });
    assert.deepEqual(body.tools, [{ name: jsonResponseToolName, description: 'Respond with a JSON object.', input_schema: schema }]);
    assert.deepEqual(body.tool_choice, { type: 'tool', name: 'json' });

    const object = convert([userSays('Hi')], { responseFormat: { type: 'json_object' }, parallelToolCalls: false });
    assert.deepEqual(object.tools?.[0]?.input_schema, { type: 'object' });
    assert.deepEqual(object.tool_choice, { type: 'tool', name: 'json', disable_parallel_tool_use: true });
  });

  it('with the client’s own tools, the JSON tool joins them and any tool call is required', () => {
    const format = { type: 'json_object' } as const;
    const body = convert([userSays('Hi')], { tools: [weather], responseFormat: format });
    assert.deepEqual(
      body.tools?.map((tool) => tool.name),
      ['weather', 'json'],
    );
    assert.deepEqual(body.tool_choice, { type: 'any' });
    const none = convert([userSays('Hi')], { tools: [weather], toolChoice: { type: 'none' }, responseFormat: format });
    assert.deepEqual(none.tool_choice, { type: 'tool', name: 'json' });
    const thinking = convert([userSays('Hi')], { responseFormat: format, reasoning: { budgetTokens: 2048 } });
    assert.deepEqual(thinking.tool_choice, { type: 'auto' }, 'Anthropic refuses forced tool use while thinking');
  });
});
