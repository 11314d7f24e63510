import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinEmbeddingDimensions, embedText } from './embed-text.js';
import { cosineSimilarity } from 'ai';

const length = (vector: number[]) => Math.hypot(...vector);

test('texts sharing words and word pieces are closer than unrelated ones', () => {
  const cat = embedText('the cat sat on the mat');
  const similar = cosineSimilarity(cat, embedText('a cat sitting on a mat'));
  const unrelated = cosineSimilarity(cat, embedText('quarterly revenue grew'));
  assert.ok(similar > 0.3, `similar texts: ${similar}`);
  assert.ok(Math.abs(unrelated) < 0.2, `unrelated texts: ${unrelated}`);
  assert.ok(similar > unrelated + 0.2);
});

test('word pieces count: an inflected word is closer than a different one', () => {
  const running = embedText('running');
  assert.ok(cosineSimilarity(running, embedText('runner')) > cosineSimilarity(running, embedText('swimming')) + 0.1);
});

test('vectors are deterministic, unit length and 256 long; case does not matter', () => {
  const vector = embedText('Hello, World!');
  assert.equal(vector.length, builtinEmbeddingDimensions);
  assert.ok(Math.abs(length(vector) - 1) < 1e-9);
  assert.deepEqual(vector, embedText('hello world'));
});

test('fewer dimensions: the full vector cut and normalised again', () => {
  const full = embedText('an embedding of some text');
  const short = embedText('an embedding of some text', 64);
  assert.equal(short.length, 64);
  assert.ok(Math.abs(length(short) - 1) < 1e-9);
  const scale = length(full.slice(0, 64));
  short.forEach((value, index) => assert.ok(Math.abs(value - full[index]! / scale) < 1e-12));
});

test('shortened vectors are a projection of the full ones: never empty, similarities roughly kept', () => {
  const cat = embedText('the cat sat on the mat', 64);
  assert.ok(cosineSimilarity(cat, embedText('a cat sitting on a mat', 64)) > cosineSimilarity(cat, embedText('quarterly revenue grew', 64)) + 0.2);
  for (const text of ['a', 'cat', 'the cat sat on the mat']) assert.ok(Math.abs(length(embedText(text, 8)) - 1) < 1e-9, text);
});

test('a text without letters or digits still gets a unit vector', () => {
  assert.ok(Math.abs(length(embedText('?!')) - 1) < 1e-9);
});
