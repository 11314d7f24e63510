import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import {
  countRequestTokens,
  countTextTokens,
  decodeTokens,
  encodeTokens,
  IMAGE_TOKEN_ESTIMATE,
  MAX_RUN_CHARS,
  REPLY_PRIMING_TOKENS,
  TOKENS_PER_MESSAGE,
  truncateToTokens,
} from './token-counter.js';
import type { ModelRequest } from './internal-representation.js';

const base: ModelRequest = {
  model: 'm',
  instructions: [],
  messages: [],
  tools: [],
  toolChoice: { type: 'auto' },
  responseFormat: { type: 'text' },
  stopSequences: [],
};

describe('countTextTokens', () => {
  it('counts o200k_base tokens', () => {
    assert.equal(countTextTokens('hello world'), 2);
    assert.equal(countTextTokens(''), 0);
  });

  it('treats special-token text as plain text instead of throwing', () => {
    assert.ok(countTextTokens('<|endoftext|>') > 1);
    assert.equal(decodeTokens(encodeTokens('a <|endoftext|> b')), 'a <|endoftext|> b');
  });
});

describe('encodeTokens on long runs', () => {
  // Random lowercase letters: one pre-tokenized piece as long as the run, which merges in quadratic time.
  const letters = (length: number, seed: number) =>
    Array.from({ length }, () => String.fromCharCode(97 + ((seed = (seed * 48271) % 2147483647) % 26))).join('');

  it('encodes a run longer than MAX_RUN_CHARS slice by slice, so its cost grows linearly', () => {
    const cases = [
      { before: 'say ', run: letters(MAX_RUN_CHARS * 3 + 5, 1), after: ' twice' },
      { before: 'tabs:', run: ' \t'.repeat(MAX_RUN_CHARS * 2), after: 'end' },
    ];
    for (const { before, run, after } of cases) {
      const slices = [0, 1, 2, 3].map((i) => run.slice(i * MAX_RUN_CHARS, (i + 1) * MAX_RUN_CHARS)).filter(Boolean);
      const bySlice = slices.flatMap((slice) => encodeTokens(slice));
      assert.notDeepEqual(encode(run), bySlice, 'the test needs a run that tokenizes differently in slices');
      assert.deepEqual(encodeTokens(before + run + after), [...encodeTokens(before), ...bySlice, ...encodeTokens(after)]);
    }
  });

  it('encodes runs up to MAX_RUN_CHARS whole, exactly as the tokenizer does', () => {
    const run = letters(MAX_RUN_CHARS, 3);
    const halves = [...encodeTokens(run.slice(0, 32)), ...encodeTokens(run.slice(32))];
    assert.notDeepEqual(encodeTokens(run), halves, 'the test needs a run whose halves tokenize differently');
    const text = `a ${run} b`;
    assert.deepEqual(encodeTokens(text), encode(text));
  });

  it('slices whitespace runs too, and never between the halves of a surrogate pair', () => {
    const text = `a${'😀'.repeat(MAX_RUN_CHARS)}${' '.repeat(MAX_RUN_CHARS * 2)}\n${'🙈'.repeat(MAX_RUN_CHARS + 1)}`;
    const decoded = decodeTokens(encodeTokens(text));
    assert.equal(decoded, text);
    assert.ok(!decoded.includes('\uFFFD'));
  });

  it('handles a text of a million tokens without overflowing the stack', () => {
    const text = `${'hello world\n'.repeat(200_000)}${'x'.repeat(100_000)}`;
    assert.equal(encodeTokens(text).length, 200_000 * 3 + 100_000 / 8);
  });
});

describe('truncateToTokens', () => {
  it('keeps exactly the first N tokens', () => {
    assert.deepEqual(truncateToTokens('one two three', 2), { text: 'one two', tokens: 2, truncated: true });
    assert.deepEqual(truncateToTokens('one two', 5), { text: 'one two', tokens: 2, truncated: false });
    assert.deepEqual(truncateToTokens('one', 0), { text: '', tokens: 0, truncated: true });
  });

  it('never splits a multi-byte character', () => {
    const text = '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🙂🙂🙂 façade 日本語のテキスト';
    for (let max = 0; max <= countTextTokens(text); max++) {
      const cut = truncateToTokens(text, max);
      assert.ok(text.startsWith(cut.text), `prefix at ${max}`);
      assert.ok(cut.tokens <= max);
      assert.ok(!cut.text.includes('\uFFFD'));
    }
  });
});

describe('countRequestTokens', () => {
  it('counts 3 per message plus 3 reply-priming tokens', () => {
    const request: ModelRequest = {
      ...base,
      instructions: [{ text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello world' }] }],
    };
    const expected = REPLY_PRIMING_TOKENS + TOKENS_PER_MESSAGE * 2 + countTextTokens('Be brief.') + 2;
    assert.equal(countRequestTokens(request), expected);
    assert.equal(countRequestTokens(base), REPLY_PRIMING_TOKENS);
  });

  it('counts images flat, tool calls, tool results, reasoning and text files', () => {
    const file = Buffer.from('file contents here').toString('base64');
    const request: ModelRequest = {
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
            { type: 'file', source: { kind: 'base64', mediaType: 'text/plain', data: file } },
            { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'think hard', redacted: 'opaque' },
            { type: 'tool_call', id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: '21 degrees' }] }] },
      ],
    };
    const expected =
      REPLY_PRIMING_TOKENS +
      TOKENS_PER_MESSAGE * 3 +
      IMAGE_TOKEN_ESTIMATE * 2 +
      countTextTokens('file contents here') +
      countTextTokens('think hard') +
      countTextTokens('get_weather') +
      countTextTokens('{"city":"Paris"}') +
      countTextTokens('21 degrees');
    assert.equal(countRequestTokens(request), expected);
  });

  it('counts tool definitions and the response schema as JSON', () => {
    const parameters = { type: 'object', properties: { city: { type: 'string' } } };
    const schema = { type: 'object', properties: { answer: { type: 'string' } } };
    const request: ModelRequest = {
      ...base,
      tools: [{ name: 'get_weather', description: 'Weather now', parameters, strict: true }],
      responseFormat: { type: 'json_schema', name: 'answer', schema },
    };
    const expected =
      REPLY_PRIMING_TOKENS +
      countTextTokens(JSON.stringify({ name: 'get_weather', description: 'Weather now', parameters })) +
      countTextTokens(JSON.stringify(schema));
    assert.equal(countRequestTokens(request), expected);
  });
});
