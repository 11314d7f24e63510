import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { colourWords, findColourWords, findMood, moodPalettes } from './colour-words.js';

describe('findColourWords', () => {
  it('finds colour words in order, once each, whatever the case', () => {
    assert.deepEqual(findColourWords('A RED ball, a Blue box and another red cup'), [colourWords.red, colourWords.blue]);
  });

  it('treats spelling variants as one colour', () => {
    assert.deepEqual(findColourWords('grey and gray'), [colourWords.gray]);
  });

  it('ignores words that only contain a colour', () => {
    assert.deepEqual(findColourWords('reddish greenery'), []);
  });
});

describe('findMood', () => {
  it('finds the first mood', () => {
    assert.equal(findMood('a forest at sunset'), moodPalettes.forest);
    assert.equal(findMood('a cat'), undefined);
  });

  it('does not mistake object properties for colours or moods', () => {
    assert.equal(findMood('constructor toString'), undefined);
    assert.deepEqual(findColourWords('constructor toString'), []);
  });
});
