import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkText, splitEvenly } from './chunk-text.js';

const samples = [
  'Hello world',
  '  leading and trailing  ',
  'tabs\tand\nnewlines\r\n\r\nparagraphs',
  'emoji 🙂 and 日本語 text',
  'single',
  ' ',
  '{"json":"text with  double spaces"}',
];

describe('chunkText', () => {
  it('joins back to exactly the text', () => {
    for (const text of samples) assert.equal(chunkText(text).join(''), text, JSON.stringify(text));
  });

  it('gives one word per chunk with its leading whitespace', () => {
    assert.deepEqual(chunkText('Hello  big\nworld '), ['Hello', '  big', '\nworld', ' ']);
    for (const chunk of chunkText('a b c d')) assert.match(chunk, /^\s*\S+$/);
  });

  it('gives no chunks for empty text', () => {
    assert.deepEqual(chunkText(''), []);
  });
});

describe('splitEvenly', () => {
  it('splits into the requested number of pieces that join back', () => {
    const text = '{"city":"Paris","unit":"celsius"}';
    for (const count of [2, 3, 4]) {
      const pieces = splitEvenly(text, count);
      assert.equal(pieces.length, count);
      assert.equal(pieces.join(''), text);
    }
  });

  it('never cuts a surrogate pair and gives fewer pieces for short text', () => {
    assert.deepEqual(splitEvenly('🙂🙂', 4), ['🙂', '🙂']);
    assert.deepEqual(splitEvenly('', 3), []);
  });
});
