import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cosineSimilarity } from './cosine-similarity.js';

test('cosine similarity: 1 for one direction, 0 at right angles, −1 opposite, none without a direction', () => {
  assert.equal(cosineSimilarity([1, 2], [2, 4]), 1);
  assert.equal(cosineSimilarity([1, 0], [0, 3]), 0);
  assert.equal(cosineSimilarity([1, 1], [-1, -1]), -1);
  assert.ok(Math.abs(cosineSimilarity([1, 0], [1, 1])! - Math.SQRT1_2) < 1e-12);
  assert.equal(cosineSimilarity([0, 0], [1, 1]), undefined);
  assert.equal(cosineSimilarity([1], [1, 2]), undefined);
  assert.equal(cosineSimilarity([], []), undefined);
});
