import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countTextTokens } from '../../core/token-counter.js';
import { compactedSummaryText } from '../../core/compaction-summary.js';
import type { Message, ModelRequest, ToolDefinition } from '../../core/internal-representation.js';
import { NO_TEXT_REPLY } from './compose-reply-text.js';
import { modelRequest, userSays } from '../../../test/helpers/model-request-fixtures.js';
import { defaultMaxOutputTokens, planAnswer } from './plan-answer.js';

const request = modelRequest;
const say = userSays;
const weather: ToolDefinition = {
  name: 'get_weather',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
    required: ['city'],
  },
};
const clock: ToolDefinition = { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } } } };

describe('planAnswer: plain chat', () => {
  it('says at most defaultMaxOutputTokens when the request sets no limit, as a real model would', () => {
    const plan = planAnswer(request([say('word '.repeat(3 * defaultMaxOutputTokens))]));
    assert.equal(plan.finishReason, 'length');
    assert.equal(plan.outputTokens, defaultMaxOutputTokens);
    assert.equal(planAnswer(request([say('word '.repeat(3 * defaultMaxOutputTokens))], { maxOutputTokens: 10_000 })).outputTokens, 10_000);
  });

  it('echoes the last user message, text parts joined with a space', () => {
    const plan = planAnswer(request([say('first'), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, {
      role: 'user',
      content: [{ type: 'text', text: 'Hello' }, { type: 'text', text: 'there' }],
    }]));
    const text = 'You said: Hello there';
    assert.deepEqual(plan, { kind: 'text', text, finishReason: 'stop', outputTokens: countTextTokens(text) });
  });

  it('notes attachments and falls back to a fixed sentence without text', () => {
    const image = { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } } as const;
    const file = { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'AA==' } } as const;
    const withImage = planAnswer(request([{ role: 'user', content: [{ type: 'text', text: 'Look' }, image] }]));
    assert.equal(withImage.kind === 'text' && withImage.text, 'You said: Look (plus 1 image)');
    const many = planAnswer(request([{ role: 'user', content: [{ type: 'text', text: 'Look' }, image, image, file] }]));
    assert.equal(many.kind === 'text' && many.text, 'You said: Look (plus 2 images and 1 file)');
    const empty = planAnswer(request([]));
    assert.equal(empty.kind === 'text' && empty.text, NO_TEXT_REPLY);
  });

  it('is deterministic', () => {
    const input = request([say('same')], { tools: [weather] });
    assert.deepEqual(planAnswer(input), planAnswer(structuredClone(input)));
  });
});

describe('planAnswer: tools', () => {
  it('calls the first tool with arguments derived from the schema and the user text', () => {
    const plan = planAnswer(request([say('Paris for 3 days')], { tools: [weather, clock] }));
    assert.equal(plan.kind, 'tool_call');
    if (plan.kind !== 'tool_call') return;
    assert.equal(plan.name, 'get_weather');
    assert.equal(plan.arguments, JSON.stringify({ city: 'Paris for 3 days', days: 3 }));
    assert.match(plan.id, /^call_[A-Za-z0-9]{24}$/);
    assert.equal(plan.finishReason, 'tool_calls');
    assert.equal(plan.outputTokens, countTextTokens('get_weather') + countTextTokens(plan.arguments));
  });

  it('calls the tool named by toolChoice and answers in text for toolChoice none', () => {
    const named = planAnswer(request([say('now')], { tools: [weather, clock], toolChoice: { type: 'tool', name: 'get_time' } }));
    assert.equal(named.kind === 'tool_call' && named.name, 'get_time');
    const none = planAnswer(request([say('now')], { tools: [weather], toolChoice: { type: 'none' } }));
    assert.equal(none.kind, 'text');
  });

  it('answers the summary of a compacted conversation in text, not with another tool call', () => {
    const summary = compactedSummaryText('Tool get_weather returned: {"temp":21}');
    const plan = planAnswer(request([say('Weather in Paris?'), say(summary)], { tools: [weather] }));
    assert.equal(plan.kind === 'text' && plan.text, `You said: ${summary}`);
  });

  it('describes tool results by the name of the matching call', () => {
    const plan = planAnswer(request([
      say('weather and time?'),
      { role: 'assistant', content: [
        { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{}' },
        { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{}' },
      ] },
      { role: 'user', content: [
        { type: 'tool_result', callId: 'call_1', content: [{ type: 'text', text: '{"temp":21}' }] },
        { type: 'tool_result', callId: 'call_2', content: [{ type: 'text', text: 'noon' }], isError: true },
        { type: 'tool_result', callId: 'call_9', name: 'gemini_named', content: [{ type: 'text', text: 'x' }] },
      ] },
    ], { tools: [weather, clock] }));
    assert.equal(plan.kind, 'text');
    assert.equal(plan.kind === 'text' && plan.text,
      'Tool get_weather returned: {"temp":21}; Tool get_time failed with: noon; Tool gemini_named returned: x');
    assert.equal(plan.finishReason, 'stop');
  });
});

describe('planAnswer: response formats', () => {
  it('answers json_schema with a conforming value built from the user text', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' }, score: { type: 'number' } }, required: ['answer'] };
    const plan = planAnswer(request([say('rate 7')], { responseFormat: { type: 'json_schema', name: 's', schema } }));
    assert.equal(plan.kind === 'text' && plan.text, JSON.stringify({ answer: 'rate 7', score: 7 }));
  });

  it('wraps the plain answer for json_object', () => {
    const plan = planAnswer(request([say('hi')], { responseFormat: { type: 'json_object' } }));
    assert.equal(plan.kind === 'text' && plan.text, JSON.stringify({ message: 'You said: hi' }));
  });
});

describe('planAnswer: limits', () => {
  it('cuts before the earliest stop sequence', () => {
    const plan = planAnswer(request([say('one two three four')], { stopSequences: ['four', ' two', ''] }));
    const text = 'You said: one';
    const outputTokens = countTextTokens(text);
    assert.deepEqual(plan, { kind: 'text', text, finishReason: 'stop_sequence', stopSequence: ' two', outputTokens });
  });

  it('cuts text to maxOutputTokens with finish length', () => {
    const plan = planAnswer(request([say('one two three four')], { maxOutputTokens: 4 }));
    assert.equal(plan.kind === 'text' && plan.text, 'You said: one');
    assert.equal(plan.finishReason, 'length');
    assert.equal(plan.outputTokens, 4);
    const roomy = planAnswer(request([say('one')], { maxOutputTokens: 100 }));
    assert.equal(roomy.finishReason, 'stop');
  });

  it('lets the length limit win when it comes before the stop sequence', () => {
    const plan = planAnswer(request([say('one two three four')], { stopSequences: ['four'], maxOutputTokens: 4 }));
    assert.equal(plan.finishReason, 'length');
  });

  it('cuts tool-call arguments to maxOutputTokens with finish length', () => {
    const plan = planAnswer(request([say('Paris for 3 days')], { tools: [weather], maxOutputTokens: 5 }));
    assert.equal(plan.kind, 'tool_call');
    if (plan.kind !== 'tool_call') return;
    assert.equal(plan.finishReason, 'length');
    assert.equal(plan.outputTokens, 5);
    assert.ok(JSON.stringify({ city: 'Paris for 3 days', days: 3 }).startsWith(plan.arguments));
    assert.equal(countTextTokens('get_weather') + countTextTokens(plan.arguments), 5);
  });
});
